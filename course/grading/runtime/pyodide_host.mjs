// The portable sandbox's host: a Deno process that runs one Python program at a time, each in
// a fresh Worker (its own V8 isolate and Pyodide) that may read Pyodide's files and nothing else
// (course/grading/pyodide_host.py starts it and talks to it).
//
//   deno run --unstable-worker-options --no-prompt --allow-read=PYODIDE,RUNTIME
//            --allow-net=127.0.0.1:PORT pyodide_host.mjs URL PYODIDE PORT
//
// The host compiles Pyodide's WebAssembly once and hands the compiled module to every worker,
// so V8's optimised code for Python's interpreter, made while earlier programs ran, serves the
// next ones.  Nothing else is shared: each worker gets its own copy of the start-up snapshot,
// its files and its own input buffer, and is terminated when its program ends.
//
// The grader's side is a TCP connection to 127.0.0.1:PORT, proved by the token this process
// reads first from its standard input, which it then closes (its standard output and error
// go nowhere): a worker, which can write to the process's standard streams, can neither read
// the connection nor reach it.  Frames both ways are a type byte, a 4-byte big-endian length
// and that many bytes:
//   grader -> host: R (a run: JSON {main, files, output}), I (input bytes), C (end of input),
//                   K (end the run now), S (start the next worker: the grader found no
//                   thread of the last run's left)
//   host -> grader: O (output bytes), A (that many input bytes were passed to the worker: the
//                   grader holds back more than a window beyond them, as a pipe would),
//                   E (the run ended: JSON exit status; -9 when ended by K or by going past
//                   its output bound)
// What a worker posts is not trusted: bytes are output, counted against the run's bound; an
// integer is its exit status; anything else is dropped.
const [pyodideUrl, pyodideFolder, port] = Deno.args;
const RING = 1 << 20; // bytes of a run's input buffer; a control block of 3 int32 before them

const token = await firstLine(Deno.stdin);
Deno.stdin.close();
const connection = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
await writeAll(new TextEncoder().encode(`${token}\n`));
const module = await WebAssembly.compile(await Deno.readFile(`${pyodideFolder}pyodide.asm.wasm`));
const snapshot = await Deno.readFile(`${pyodideFolder}pyodide.snapshot`).catch(() => null);

let run = null; // {worker, control, ring, pending, sent, bound, writing, closing}
let sending = Promise.resolve();

function send(type, bytes) {
  const frame = new Uint8Array(5 + bytes.length);
  frame[0] = type.charCodeAt(0);
  new DataView(frame.buffer).setUint32(1, bytes.length);
  frame.set(bytes, 5);
  sending = sending.then(() => writeAll(frame));
}

// A worker that has started Pyodide and waits for a program: made when the host starts and
// after each run (when the grader says S), while the grader reads the answers.
let spare = null;

function startWorker() {
  const worker = new Worker(new URL("pyodide_worker.mjs", import.meta.url), {
    type: "module",
    deno: { permissions: { read: [pyodideFolder], net: false, env: false, run: false,
                           write: false, ffi: false, sys: false, import: false } },
  });
  const copy = snapshot?.slice() ?? null;
  worker.postMessage({ module, snapshot: copy, pyodideUrl, pyodideFolder },
                     copy ? [copy.buffer] : []);
  return worker;
}

function start({ main, files, output }) {
  const stdin = new SharedArrayBuffer(12 + RING);
  const worker = spare ?? startWorker();
  spare = null;
  run = { worker, control: new Int32Array(stdin, 0, 3), ring: new Uint8Array(stdin, 12),
          pending: [], sent: 0, bound: output, writing: false };
  const mine = run;
  worker.onmessage = ({ data }) => {
    if (run !== mine) return;
    if (data instanceof Uint8Array) {
      mine.sent += data.length;
      send("O", mine.sent > mine.bound ? data.subarray(0, data.length - (mine.sent - mine.bound)) : data);
      if (mine.sent > mine.bound) end(-9);
    } else if (Number.isInteger(data) && Math.abs(data) < 256) end(data);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    if (run === mine) end(1);
  };
  worker.postMessage({ files, main, stdin });
}

function end(status) {
  run.worker.terminate();
  run = null;
  send("E", new TextEncoder().encode(JSON.stringify(status)));
}

// Input goes through the ring: control[0] counts bytes written, control[1] bytes read (by the
// worker, so it is checked), control[2] is 1 once the input ended.
async function pump(mine) {
  if (mine.writing) return;
  mine.writing = true;
  while (run === mine && mine.pending.length) {
    const [written, read] = [Atomics.load(mine.control, 0), Atomics.load(mine.control, 1)];
    const used = (written - read) | 0;
    if (used < 0 || used > RING) return end(1); // the worker broke its own buffer
    if (used === RING) {
      await Atomics.waitAsync(mine.control, 1, read, 50).value;
      continue;
    }
    const chunk = mine.pending[0];
    const count = Math.min(chunk.length, RING - used);
    for (let i = 0; i < count; i++) mine.ring[((written + i) >>> 0) % RING] = chunk[i];
    Atomics.store(mine.control, 0, (written + count) | 0);
    Atomics.notify(mine.control, 0);
    send("A", new TextEncoder().encode(String(count)));
    if (count === chunk.length) mine.pending.shift();
    else mine.pending[0] = chunk.subarray(count);
  }
  mine.writing = false;
  if (run === mine && mine.closing) {
    Atomics.store(mine.control, 2, 1);
    Atomics.notify(mine.control, 0);
  }
}

spare = startWorker();
for await (const [type, body] of frames(connection)) {
  if (type === "R") start(JSON.parse(new TextDecoder().decode(body)));
  else if (type === "I" && run) run.pending.push(body), pump(run);
  else if (type === "C" && run) run.closing = true, pump(run);
  else if (type === "K" && run) end(-9);
  else if (type === "S" && !run) spare ??= startWorker();
}
Deno.exit(0); // the grader is gone

async function* frames(stream) {
  let buffer = new Uint8Array(0);
  for await (const chunk of stream.readable) {
    const joined = new Uint8Array(buffer.length + chunk.length);
    joined.set(buffer);
    joined.set(chunk, buffer.length);
    buffer = joined;
    while (buffer.length >= 5) {
      const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
      if (buffer.length < 5 + length) break;
      yield [String.fromCharCode(buffer[0]), buffer.slice(5, 5 + length)];
      buffer = buffer.subarray(5 + length);
    }
  }
}

async function writeAll(bytes) {
  let written = 0;
  while (written < bytes.length) written += await connection.write(bytes.subarray(written));
}

async function firstLine(stream) {
  const buffer = new Uint8Array(256);
  let length = 0;
  while (!buffer.subarray(0, length).includes(10) && length < buffer.length) {
    const count = await stream.read(buffer.subarray(length));
    if (count === null) break;
    length += count;
  }
  return new TextDecoder().decode(buffer.subarray(0, length)).split("\n")[0];
}
