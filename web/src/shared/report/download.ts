import i18n, { currentLanguage } from '../i18n.ts';
import { httpErrorMessage } from '../api.ts';
import { getToken } from '../storage.ts';
import { dispositionName } from './disposition.ts';

function encode(params: Record<string, unknown>): URLSearchParams {
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const x of v) f.append(k, String(x));
    else f.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return f;
}

/**
 * Downloads a file the way the console's API is called (token and language headers; GET with the parameters in
 * the query, POST form-encoded), saves it under the server's file name and returns that name. An error answer
 * (a JSON envelope) throws an Error with the server's translated message; another failure, the HTTP status's.
 */
export async function downloadFile(
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, unknown>,
  fallbackName = 'report',
): Promise<string> {
  const headers: Record<string, string> = { language: currentLanguage() };
  const token = getToken();
  if (token) headers.token = token;
  const form = encode(params);
  let res: Response;
  try {
    res = await fetch(method === 'GET' ? `${path}?${form.toString()}` : path, {
      method,
      headers:
        method === 'POST' ? { ...headers, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' } : headers,
      body: method === 'POST' ? form : undefined,
    });
  } catch (e) {
    throw new Error(i18n.t('common:error.network', { detail: (e as Error).message }), { cause: e });
  }
  const type = res.headers.get('content-type') ?? '';
  if (/\bjson\b/i.test(type)) {
    const env = (await res.json().catch(() => null)) as { info?: string } | null;
    throw new Error(env?.info || httpErrorMessage(res.status));
  }
  if (!res.ok) throw new Error(httpErrorMessage(res.status));
  const blob = await res.blob();
  const name = dispositionName(res.headers.get('content-disposition'), fallbackName);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
