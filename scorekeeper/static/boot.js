// scorekeeper (scorekeeper/static/start.py prepends this to Flet's python-worker.js).
//
// A first message {preload: true} starts Python at once, as the page loads: from the interpreter the build saved
// with the app already imported (pyodide/snapshot.bin.gz, scorekeeper/static/snapshot.py), while the app's
// archive is fetched and written into the file system by this script (faster than Python's tarfile in the
// worker). The app's init message then awaits that start instead of its own, and skips its own unpacking.
// Whatever fails on that way (no snapshot in the site, a browser that cannot restore it), Python starts as
// Flet's worker starts it, and the init message unpacks the archive as usual.
//
// The site keeps its largest files gzipped only (GZIPPED, scorekeeper/static/trim.py): the runtime's wasm and
// module, the snapshot. Everything asks for their plain names; the service worker, once it controls the page,
// answers them from its inflated copies, and until then (a first load) this worker's `fetch` inflates the `.gz`
// (unless the host answers the plain names itself, as the owner's server does).
self.preloaded = null;

const SNAPSHOT = "snapshot.bin";
const GZIPPED = __GZIPPED__;
const siteBase = new URL(".", self.location.href).href;
let plainServed = Promise.resolve(false); // set by the preload message: whether the plain names are answered

function packedName(url) {
    const address = new URL(url, self.location.href);
    address.search = "";
    const name = address.href.startsWith(siteBase) ? address.href.slice(siteBase.length) : null;
    return name !== null && Object.hasOwn(GZIPPED, name) ? name : null;
}

const _fetch = self.fetch.bind(self);
self.fetch = async function (input, init) {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const name = packedName(url);
    if (!name || (await plainServed)) {
        return _fetch(input, init);
    }
    const packed = await _fetch(siteBase + name + ".gz", init);
    if (!packed.ok) {
        return packed;
    }
    return new Response(packed.body.pipeThrough(new DecompressionStream("gzip")), {
        headers: { "Content-Type": GZIPPED[name] },
    });
};

async function fetchedBytes(url, { gunzip = false } = {}) {
    const response = await fetch(url);
    if (!response.ok) {
        throw new Error(`${url}: HTTP ${response.status}`);
    }
    const body = gunzip ? new Response(response.body.pipeThrough(new DecompressionStream("gzip"))) : response;
    return new Uint8Array(await body.arrayBuffer());
}

// A module of the site: imported by its address where the service worker answers it, else from the inflated text.
async function importModule(url) {
    if (!packedName(url) || (await plainServed)) {
        return import(url);
    }
    const response = await fetch(url);
    if (!response.ok) {
        throw new Error(`${url}: HTTP ${response.status}`);
    }
    return import(URL.createObjectURL(await response.blob()));
}

// Files of a tar archive (GNU format, as scorekeeper/static/build.py writes it) into Emscripten's FS under root.
function writeTar(FS, bytes, root) {
    const text = new TextDecoder();
    const field = (header, start, length) => {
        const raw = header.subarray(start, start + length);
        const end = raw.indexOf(0);
        return text.decode(end < 0 ? raw : raw.subarray(0, end));
    };
    let offset = 0;
    let longName = null;
    let files = 0;
    while (offset + 512 <= bytes.length && bytes[offset] !== 0) {
        const header = bytes.subarray(offset, offset + 512);
        const size = parseInt(field(header, 124, 12).trim() || "0", 8);
        const type = String.fromCharCode(header[156]);
        const data = bytes.subarray(offset + 512, offset + 512 + size);
        offset += 512 + Math.ceil(size / 512) * 512;
        if (type === "L") {
            longName = field(data, 0, data.length);
            continue;
        }
        const path = root + "/" + (longName ?? field(header, 0, 100));
        longName = null;
        if (type === "5") {
            FS.mkdirTree(path);
        } else if (type === "0" || type === "\0") {
            FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
            FS.writeFile(path, data);
            files += 1;
        }
    }
    return files;
}

self.preload = function (data) {
    // the service worker answers the plain names from its inflated copies; else the host may (the owner's server
    // does, gzip-encoded), which one HEAD request tells
    plainServed = data.controlled
        ? Promise.resolve(true)
        : _fetch(siteBase + Object.keys(GZIPPED)[0], { method: "HEAD" }).then(
              (response) => response.ok,
              () => false,
          );
    const options = {
        stdout: (text) => self.sendPythonOutput(text, false),
        stderr: (text) => self.sendPythonOutput(text, true),
    };
    const runtime = new URL(data.pyodideUrl, self.location.href);
    const indexURL = new URL(".", runtime).href;
    const create = importModule(indexURL + "pyodide.asm.mjs").then((module) => module.default);
    const snapshot = fetchedBytes(indexURL + SNAPSHOT);
    const archive = data.appPackageUrl
        ? fetchedBytes(new URL(data.appPackageUrl, self.location.href).href, { gunzip: true })
        : null;
    for (const promise of [create, snapshot, archive]) {
        promise?.catch(() => {});
    }
    self.preloaded = (async () => {
        const module = await import(runtime.href);
        const loadPyodide = module.loadPyodide || self.loadPyodide;
        if (archive) {
            try {
                const bytes = await snapshot;
                const createModule = await create;
                let files = 0;
                const pyodide = await loadPyodide({
                    ...options,
                    _loadSnapshot: bytes,
                    // the saved memory is larger than a new interpreter's: grow it before Pyodide copies it in
                    createPyodideModule: async (settings) => {
                        const created = await createModule(settings);
                        created.growMemory(bytes.length);
                        return created;
                    },
                    fsInit: async (FS) => {
                        files = writeTar(FS, await archive, FS.cwd());
                    },
                });
                console.log(`scorekeeper: Python started from the saved interpreter, ${files} files`);
                self.flet_js.appUnpacked = true;
                // the browser's storage fills while Flutter's client loads (scorekeeper/static/worker.py)
                pyodide.runPython("from scorekeeper.static import worker\nworker.mount_early()");
                return pyodide;
            } catch (error) {
                console.warn("scorekeeper: Python starts without the saved interpreter:", error);
            }
        }
        return loadPyodide({ ...options, createPyodideModule: await create });
    })();
    self.preloaded.catch(() => {}); // a failed start is reported by the init message, which awaits it
};
