// The portable sandbox's inside: run one Python program in Pyodide, in Deno, with no permission
// but reading Pyodide's files and the run's own folder (course/grading/sandbox.py starts it).
//
//   deno run --no-prompt --allow-read=PYODIDE,FOLDER pyodide_sandbox.mjs URL PYODIDE FOLDER MAIN
//
// URL is PYODIDE's folder as a file: URL (to import pyodide.mjs), PYODIDE the same folder as
// a path ending in its separator (Pyodide reads its files through paths).
//
// The program's standard input and output are this process's (the grader's pipe); its
// standard error goes nowhere.  Every file of FOLDER is copied into /sandbox of Pyodide's
// in-memory file system, which is all the program sees of files.  The exit status is 0 when
// MAIN ran to its end, N for os._exit(N), 1 when it raised.  Nothing here is trusted once
// MAIN starts: the grader decides everything on its side, from the plain lines it reads back.
const [pyodideUrl, pyodideFolder, folder, main] = Deno.args;
const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideUrl).href);
// From the core's start-up snapshot (course/pyodide.py makes it beside the core) where there
// is one that starts; else Python starts itself.
const start = () => loadPyodide({ indexURL: pyodideFolder });
const snapshot = await Deno.readFile(`${pyodideFolder}pyodide.snapshot`).catch(() => null);
const pyodide = snapshot
  ? await loadPyodide({ indexURL: pyodideFolder, _loadSnapshot: snapshot }).catch(start)
  : await start();

pyodide.setStdin({ read: (buffer) => Deno.stdin.readSync(buffer) ?? 0 });
pyodide.setStdout({
  write(buffer) {
    let written = 0;
    while (written < buffer.length) written += Deno.stdout.writeSync(buffer.subarray(written));
    return buffer.length;
  },
});
pyodide.setStderr({ write: (buffer) => buffer.length });

pyodide.FS.mkdirTree("/sandbox");
for await (const entry of Deno.readDir(folder)) {
  if (entry.isFile) {
    pyodide.FS.writeFile(`/sandbox/${entry.name}`, await Deno.readFile(`${folder}/${entry.name}`));
  }
}
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
  Deno.exit(0);
} catch (error) {
  // os._exit(n) ends Pyodide with an exit status; anything else raised is 1.
  Deno.exit(Number.isInteger(error?.status) ? error.status : 1);
}
