"""The kernel's files where the browser gives it no drive: a plain-http LAN address.

JupyterLite's kernel reads the page's files (``/drive``) through the site's service
worker, which a browser runs only in a secure context (https, ``localhost``,
``127.0.0.1``), or through a SharedArrayBuffer, which needs cross-origin isolation, which
Chromium also grants only in a secure context.  At ``http://192.168.1.20:8765/`` neither
exists, and the kernel saw none of the site's files.  These three pieces of JavaScript,
put into the kernel's bundles by :mod:`course.site.patches`, need neither:

* :data:`PAGE_FILES` (the page, before the kernel starts): when the kernel will have no
  drive, it reads every file of the page's own store (the site's lessons and exercises
  and what the student saved in this browser) and hands them to the kernel with its
  start options; later it saves what the kernel sends back into the same store, where the
  file browser shows it and a reload keeps it.
* :data:`WORKER_FILES` (the kernel's worker, in place of the drive): writes those files
  into ``/drive``, goes to the notebook's folder and remembers each file's time and size.
* :data:`WORKER_SYNC` (the worker, after every cell): sends each file that is new or
  changed under ``/drive`` back to the page.

What this cannot do: a file saved in the page after the kernel started (a notebook
saved with Ctrl+S) reaches the kernel at its next start, and a file the kernel deletes
stays in the page's store.  ``hand_in`` saves and posts from the page, so it is whole.
"""

from __future__ import annotations

#: JavaScript text put into JupyterLite's bundles at build time.

#: ``(contents, options, worker) => Promise<options>``: the page's files for a kernel with no drive.
PAGE_FILES = """(async (contents, options, worker) => {
  if (options.mountDrive || !contents) return options;
  const files = [];
  const walk = async (path) => {
    const folder = await contents.get(path, {content: true});
    for (const item of folder.content || []) {
      if (item.type === "directory") { await walk(item.path); continue; }
      const model = await contents.get(item.path, {content: true});
      if (model.type === "notebook") files.push({path: item.path, text: JSON.stringify(model.content)});
      else if (model.format === "base64") files.push({path: item.path, base64: model.content});
      else files.push({path: item.path, text: String(model.content ?? "")});
    }
  };
  try { await walk(""); } catch (failed) { console.warn("reversi-kit: the kernel gets no files:", failed); }
  worker.addEventListener("message", (event) => {
    const save = event.data && event.data._kitSave;
    if (save) contents.save(save.path, save.model).catch((failed) => console.warn("reversi-kit: not saved:", save.path, failed));
  });
  console.info("reversi-kit: no drive for the kernel here; it starts with " + files.length + " files of this browser's store");
  return {...options, kitFiles: files};
})"""

#: ``(kernel, options) => void``, ``this`` being the worker's kernel: fills ``/drive`` from ``options.kitFiles``.
WORKER_FILES = """((kernel, options) => {
  const FS = kernel._pyodide.FS, root = "/drive";
  const bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  FS.mkdirTree(root);
  for (const file of options.kitFiles) {
    const where = root + "/" + file.path;
    FS.mkdirTree(where.slice(0, where.lastIndexOf("/")));
    FS.writeFile(where, file.base64 !== undefined ? bytes(file.base64) : file.text);
  }
  const seen = () => {
    const found = {};
    const walk = (folder) => {
      for (const name of FS.readdir(folder)) {
        if (name.startsWith(".")) continue;
        const path = folder + "/" + name, stat = FS.stat(path);
        if (FS.isDir(stat.mode)) walk(path); else found[path.slice(root.length + 1)] = stat.mtime.getTime() + ":" + stat.size;
      }
    };
    walk(root);
    return found;
  };
  let known = seen();
  kernel._kitSync = () => {
    const now = seen();
    for (const [path, mark] of Object.entries(now)) {
      if (known[path] === mark) continue;
      const data = FS.readFile(root + "/" + path);
      let model = null;
      try {
        const text = new TextDecoder("utf-8", {fatal: true}).decode(data);
        model = path.endsWith(".ipynb") ? {type: "notebook", format: "json", content: JSON.parse(text)} : {type: "file", format: "text", content: text};
      } catch (notText) {
        let binary = "";
        for (let i = 0; i < data.length; i += 32768) binary += String.fromCharCode(...data.subarray(i, i + 32768));
        model = {type: "file", format: "base64", content: btoa(binary)};
      }
      postMessage({_kitSave: {path, model}});
    }
    known = now;
  };
  FS.chdir(root);
  try { FS.chdir(root + "/" + kernel._localPath); } catch (missing) { /* a notebook at the top */ }
})"""

#: A statement run after every cell in the worker (``this`` the worker's kernel).
WORKER_SYNC = "this._kitSync&&this._kitSync()"
