// ruff_async.js — the ruff contender of tests/bench/run: ruff's
// flake8-async rules (`--select ASYNC`) through ruff's WebAssembly build,
// over every .py file under a directory, one file at a time, as ruff's
// own `check` would see them. Usage: node ruff_async.js NODE_MODULES DIR
// Prints one line: files, diagnostics by code, seconds.
'use strict';
const fs = require('fs');
const path = require('path');

const [modules, root] = process.argv.slice(2);
if (!modules || !root) {
    console.error('usage: node ruff_async.js NODE_MODULES DIR');
    process.exit(2);
}
const ruff = require(path.join(path.resolve(modules), '@astral-sh', 'ruff-wasm-nodejs'));

const t0 = process.hrtime.bigint();
const ws = new ruff.Workspace({ lint: { select: ['ASYNC'] } }, ruff.PositionEncoding.Utf32);

// an explicit stack, not recursion: the tree may be deep
const files = [];
const dirs = [root];
while (dirs.length) {
    const dir = dirs.pop();
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) dirs.push(p);
        else if (e.isFile() && e.name.endsWith('.py')) files.push(p);
    }
}
files.sort();

const codes = {};
let diagnostics = 0, failed = 0;
for (const f of files) {
    let found;
    try {
        found = ws.check(fs.readFileSync(f, 'utf8'));
    } catch (err) {
        failed++;
        continue;
    }
    for (const d of found) {
        diagnostics++;
        const c = d.code || 'syntax-error';
        codes[c] = (codes[c] || 0) + 1;
    }
}
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
const byCode = Object.keys(codes).sort().map((c) => `${c}=${codes[c]}`).join(',');
console.log(`ruff-wasm ${ruff.Workspace.version()}: files=${files.length} failed=${failed} ` +
            `diagnostics=${diagnostics} (${byCode}) seconds=${secs.toFixed(3)}`);
