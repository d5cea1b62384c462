/**
 * Requests to the UI's server: same origin, the run's token (from the page's meta element) in the header
 * the server requires of API requests; an answer `{ error }` becomes a thrown Error with its message.
 */
const TOKEN = document.querySelector('meta[name="gabarit-token"]')?.getAttribute('content') ?? '';

async function answer<T>(r: Response): Promise<T> {
  const body = (await r.json().catch(() => null)) as T | { error?: unknown } | null;
  if (!r.ok) {
    const error = (body as { error?: unknown } | null)?.error;
    throw new Error(typeof error === 'string' ? error : `${r.status} ${r.statusText}`);
  }
  return body as T;
}

export async function get<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return answer<T>(await fetch(`${path}${q.size ? '?' + q : ''}`, { headers: { 'x-gabarit-token': TOKEN } }));
}

export async function post<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(await fetch(path, { method: 'POST', headers: { 'x-gabarit-token': TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
}

/** The URL of a page of the source in a frame, marked by `method` ('none': unmarked). */
export function frameUrl(method: string, key: string): string {
  return `/frame/${encodeURIComponent(method)}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** Offers `text` to the user as a file download. */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Percent with one decimal, '—' for NaN. */
export function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—';
}
