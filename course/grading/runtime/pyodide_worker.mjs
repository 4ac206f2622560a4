// One sandboxed Python program, in a Worker of the portable sandbox's host (pyodide_host.mjs).
//
// The first message brings Pyodide's compiled module (shared, read-only) and a copy of the
// start-up snapshot: the worker starts Pyodide and waits, so a program starts at once.  The
// second brings the program's files (copied into Pyodide's in-memory /sandbox, which is all
// it sees of files), the name of its main file, and the shared buffer its standard input
// arrives through.  Its standard output is posted back as bytes; its standard error
// goes nowhere.  The last message is the exit status: 0 when MAIN ran to its end, N for
// os._exit(N), 1 when it raised.  Nothing here is trusted once MAIN starts: the host takes
// only bytes and one integer from this worker, and the grader decides everything on its side.
self.onmessage = async ({ data }) => {
  self.onmessage = null;
  const { module, snapshot, pyodideUrl, pyodideFolder } = data;
  const program = new Promise((resolve) => (self.onmessage = ({ data }) => resolve(data)));
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (source, imports) =>
    source instanceof WebAssembly.Module
      ? instantiate(source, imports)
      : { module, instance: await instantiate(module, imports) };
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideUrl).href);
  // From the core's start-up snapshot (course/pyodide.py makes it beside the core) where there
  // is one that starts; else Python starts itself.
  const start = () => loadPyodide({ indexURL: pyodideFolder });
  const pyodide = snapshot
    ? await loadPyodide({ indexURL: pyodideFolder, _loadSnapshot: snapshot }).catch(start)
    : await start();
  WebAssembly.instantiate = instantiate;
  const { files, main, stdin } = await program;
  self.onmessage = null;

  const control = new Int32Array(stdin, 0, 3);
  const ring = new Uint8Array(stdin, 12);
  pyodide.setStdin({
    read(buffer) {
      for (;;) {
        const [written, read] = [Atomics.load(control, 0), Atomics.load(control, 1)];
        const count = Math.min((written - read) | 0, buffer.length);
        if (count > 0) {
          for (let i = 0; i < count; i++) buffer[i] = ring[((read + i) >>> 0) % ring.length];
          Atomics.store(control, 1, (read + count) | 0);
          Atomics.notify(control, 1);
          return count;
        }
        if (Atomics.load(control, 2)) return 0;
        Atomics.wait(control, 0, written);
      }
    },
  });
  pyodide.setStdout({
    write(buffer) {
      self.postMessage(buffer.slice());
      return buffer.length;
    },
  });
  pyodide.setStderr({ write: (buffer) => buffer.length });

  pyodide.FS.mkdirTree("/sandbox");
  for (const [name, text] of Object.entries(files)) pyodide.FS.writeFile(`/sandbox/${name}`, text);
  pyodide.FS.mkdirTree("/home/sandbox");
  pyodide.FS.chdir("/home/sandbox");
  pyodide.globals.set("main_file", `/sandbox/${main}`);
  try {
    pyodide.runPython(`
import random, runpy, sys
random.seed()  # Pyodide's start imported random: a snapshot would give every run its sequence
sys.argv = [main_file]
sys.path.insert(0, "/sandbox")
del main_file
runpy.run_path(sys.argv[0], run_name="__main__")
`);
    self.postMessage(0);
  } catch (error) {
    // os._exit(n) ends Pyodide with an exit status; anything else raised is 1.
    self.postMessage(Number.isInteger(error?.status) ? error.status : 1);
  }
};
