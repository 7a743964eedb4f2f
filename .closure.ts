// Static-import closure of a module (local files only), with sizes.
const seen = new Map<string, number>();
const staticImport = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
async function walk(path: string) {
  if (seen.has(path)) return;
  const text = await Deno.readTextFile(path);
  seen.set(path, text.length);
  for (const m of text.matchAll(staticImport)) {
    const spec = m[1];
    if (!spec.startsWith(".")) continue;
    const full = new URL(spec, "file://" + path).pathname;
    if (full.endsWith(".json")) { seen.set(full, (await Deno.stat(full)).size); continue; }
    await walk(full);
  }
}
await walk(Deno.realPathSync(Deno.args[0]));
const entries = [...seen].sort((a, b) => b[1] - a[1]);
console.log(Deno.args[0], entries.length, "modules", entries.reduce((s, e) => s + e[1], 0), "chars");
for (const [p, n] of entries.slice(0, Number(Deno.args[1] ?? 0))) console.log(" ", n, p.replace("/work/main/", ""));
