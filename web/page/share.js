// Share links: the puzzle's text travels in the URL fragment (never sent to a
// server), deflated and base64url-encoded: #name=…&id=…&dialect=…&z=…  (or t=…
// uncompressed where the browser has no CompressionStream).
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

// The link for a puzzle. A puzzle picked from a collection is exported alone (crossat
// JSON, by the library) so the link does not carry the whole collection.
export async function shareLink(source, heavy) {
  let text = source.text;
  let id = source.id;
  if (id) {
    try {
      const { result } = await heavy.call('export', source, 'crossat');
      text = typeof result === 'string' ? result : JSON.stringify(result);
      id = null;
    } catch { /* keep the collection and its id */ }
  }
  const params = [`name=${encodeURIComponent(source.name)}`];
  if (id) params.push(`id=${encodeURIComponent(id)}`);
  if (source.dialect) params.push(`dialect=${encodeURIComponent(source.dialect)}`);
  params.push(await encode(text));
  return `${location.origin}${location.pathname}#${params.join('&')}`;
}

// The puzzle in a fragment, or null when the fragment carries none.
export async function readShare(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
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
