// Runs Python code under MicroPython (its WebAssembly port) with some modules
// on its path. Reads {"files": {"name.py": "source"}, "code": "..."} as JSON on
// stdin and prints what the code prints. Exit status 1 on a Python exception.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input);
const out = [];
const mp = await loadMicroPython({ stdout: (line) => out.push(line), stderr: (line) => out.push(line) });
mp.FS.mkdirTree("/lib");
for (const [name, text] of Object.entries(job.files)) mp.FS.writeFile("/lib/" + name, text);
try {
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\n" + job.code);
  process.stdout.write(out.join("\n") + "\n");
} catch (err) {
  process.stdout.write(out.join("\n") + "\n");
  process.stderr.write(String(err) + "\n");
  process.exit(1);
}
