import { vibrationRoutes, type VibrationReportQuery } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';
import { currentLanguage } from '../../shared/i18n.ts';

export type VibrationParams = Omit<VibrationReportQuery, 'format'>;

export const vibrationKeys = { report: (p: VibrationParams) => ['vibration', 'report', p] as const };

export const fetchVibrationReport = (p: VibrationParams) =>
  call(vibrationRoutes.getVibrationReport, { ...p }, { keepEarlier: true });

/** Downloads the report file (GET with the token header), saved under the server's name; throws the envelope's info. */
export async function downloadVibrationReport(p: VibrationParams, format: 'xlsx' | 'pdf'): Promise<string> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...p, format })) if (v !== undefined && v !== '') q.set(k, String(v));
  const token = getToken();
  const res = await fetch(`${vibrationRoutes.getVibrationReportFile.path}?${q.toString()}`, {
    headers: { language: currentLanguage(), ...(token ? { token } : {}) },
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const env = (await res.json().catch(() => null)) as { info?: string } | null;
    throw new Error(env?.info ?? res.statusText);
  }
  const blob = await res.blob();
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `vibration.${format}`;
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
