import { serviceUrl } from '../../../lib/api-client.ts';
import { sessionStore } from '../../../lib/session-store.ts';

/** The server's message of a failed answer (contract §1.3), or a plain one. */
function failureOf(text: string, status: number): Error {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return new Error(body.message);
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return new Error(`Request failed with status ${status}`);
}

/**
 * contract §1.10: GET /activity_reports/:id/download answers a short-lived URL of the file as text, which
 * the console follows as a download link (no credentials needed there).
 */
export async function downloadActivityReport(reportId: string, filename: string): Promise<void> {
  const token = sessionStore.getState().accessToken;
  const headers: Record<string, string> = { 'Content-Type': 'application/hal+json' };
  if (token) headers.Authorization = `Bearer ${token.accessToken}`;
  const answer = await fetch(
    serviceUrl('api', `/activity_reports/${encodeURIComponent(reportId)}/download`),
    {
      headers,
      credentials: 'include',
    },
  );
  const text = await answer.text();
  if (!answer.ok) throw failureOf(text, answer.status);
  const link = document.createElement('a');
  link.href = text.trim();
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
