/**
 * Content negotiation for the precompressed assets: which of our encodings (`br`, `gzip`) a request's
 * `Accept-Encoding` allows, honouring q-values (`gzip;q=0` refuses gzip; `*` stands for any encoding not named).
 */

export type AssetEncoding = 'br' | 'gzip';

/** The preferred encoding the client accepts, best first by its q-value, then ours (br before gzip); else identity. */
export function pickEncoding(header: string | string[] | undefined): AssetEncoding | 'identity' {
  const text = Array.isArray(header) ? header.join(',') : header ?? '';
  const q = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    if (name === '') continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (name: AssetEncoding): number => q.get(name) ?? q.get('*') ?? 0;
  const ranked = (['br', 'gzip'] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a));
  return ranked[0] ?? 'identity';
}
