// Share links, in the URL fragment (never sent to a server):
// - a bundled puzzle by its place: #c=regexcrossword-com&id=beginner/1 (a collection
//   of challenges) or #c=antoine-trux&f=MIT.input.txt (a file), with &dialect=… when
//   its clues are read in another dialect;
// - any other puzzle by its text, deflated and base64url-encoded:
//   #name=…&dialect=…&z=…  (or t=… uncompressed where the browser has no
//   CompressionStream); the shorter of the text as given and the library's compact
//   crossat JSON of the puzzle alone (never a whole collection).
function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export async function encode(text) {
  const bytes = new TextEncoder().encode(text);
  if (typeof CompressionStream === 'function') return `z=${toBase64url(await pipe(bytes, new CompressionStream('deflate-raw')))}`;
  return `t=${toBase64url(bytes)}`;
}

// The link for a puzzle (source: {name, text, id, dialect, path}).
export async function shareLink(source, heavy) {
  const here = `${location.origin}${location.pathname}#`;
  const dialect = source.dialect ? `&dialect=${encodeURIComponent(source.dialect)}` : '';
  const bundled = /^puzzles\/([\w.-]+)\/([\w.-]+)$/.exec(source.path ?? '');
  if (bundled) {
    const [, c, f] = bundled;
    const at = source.id ? `id=${encodeURIComponent(source.id).replace(/%2F/g, '/')}` : `f=${encodeURIComponent(f)}`;
    return `${here}c=${encodeURIComponent(c)}&${at}${dialect}`;
  }
  const texts = source.id ? [] : [source.text];
  try {
    const { result } = await heavy.call('export', source, 'crossat');
    const json = typeof result === 'string' ? JSON.parse(result) : result;
    texts.push(JSON.stringify(json));
  } catch { /* not writable as crossat JSON: the text as given */ }
  if (!texts.length) texts.push(source.text);
  const encoded = await Promise.all(texts.map(encode));
  const body = encoded.reduce((a, b) => (b.length < a.length ? b : a));
  const id = source.id && texts.length === 1 && texts[0] === source.text ? `&id=${encodeURIComponent(source.id)}` : '';
  return `${here}name=${encodeURIComponent(source.name)}${id}${dialect}&${body}`;
}

// The puzzle in a fragment, or null when the fragment carries none.
export async function readShare(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const c = params.get('c');
  if (c) {
    if (!/^[\w.-]+$/.test(c)) throw new Error('The share link is damaged: it names no bundled collection.');
    const f = params.get('f');
    if (f != null && !/^[\w.-]+$/.test(f)) throw new Error('The share link is damaged: it names no bundled puzzle.');
    return { bundled: true, collection: c, file: f, id: params.get('id') || null, dialect: params.get('dialect') || null };
  }
  const z = params.get('z');
  const t = params.get('t');
  if (!z && !t) return null;
  let bytes;
  try {
    bytes = z ? await pipe(fromBase64url(z), new DecompressionStream('deflate-raw')) : fromBase64url(t);
  } catch {
    throw new Error('The share link is damaged: its puzzle cannot be decoded.');
  }
  const text = new TextDecoder().decode(bytes);
  return { name: params.get('name') || 'shared', id: params.get('id') || null, dialect: params.get('dialect') || null, text };
}
