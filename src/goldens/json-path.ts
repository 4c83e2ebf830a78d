/** Renders a path of keys/indexes as a JSON path (`$.interactions[0].request.url`). */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** Converts a JSON pointer (`/interactions/0/url`, as fast-json-patch reports) to a JSON path. */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '$';
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return jsonPath(parts);
}
