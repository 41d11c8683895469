// A pure-Python wheel made with the standard library only (docs/publishing.md, "Python
// packages": no index is reachable here, so tests and the publish bench bring their own): a wheel
// is a zip holding the package, METADATA, WHEEL and a RECORD of hashes, so zipfile writes it with
// no build backend. Its package `tinyword` greets with `marker` in the text, so a new marker is a
// new wheel and a new Python packages' layer.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

export const TINY_WHEEL = 'tinyword-1.0-py3-none-any.whl';

const WRITE_WHEEL = `
import base64, hashlib, sys, zipfile
folder, marker, wheel_name = sys.argv[1], sys.argv[2], sys.argv[3]
files = {
    "tinyword/__init__.py": "def greet(name):\\n    return 'Hello, ' + name + ' (tinyword " + marker + ")'\\n",
    "tinyword-1.0.dist-info/METADATA": "Metadata-Version: 2.1\\nName: tinyword\\nVersion: 1.0\\n",
    "tinyword-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: limelight-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = []
for name, text in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
    record.append(f"{name},sha256={digest},{len(text.encode())}")
files["tinyword-1.0.dist-info/RECORD"] = "\\n".join(record + ["tinyword-1.0.dist-info/RECORD,,"]) + "\\n"
with zipfile.ZipFile(folder + "/" + wheel_name, "w") as wheel:
    for name, text in files.items():
        wheel.writestr(name, text)
`;

/** Writes `folder/tinyword-1.0-py3-none-any.whl` (tinyword.greet(name) → "Hello, <name> (tinyword <marker>)"); answers its file name. */
export function makeTinyWheel(python: string, folder: string, marker: string): string {
  mkdirSync(folder, { recursive: true });
  const done = spawnSync(python, ['-c', WRITE_WHEEL, folder, marker, TINY_WHEEL], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`making ${TINY_WHEEL}: ${done.stderr}`);
  return TINY_WHEEL;
}
