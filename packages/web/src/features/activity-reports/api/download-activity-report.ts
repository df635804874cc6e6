import { apiDownload } from '../../../lib/api-client.ts';
import { downloadUrl } from '../../../lib/download.ts';

/**
 * contract §1.10: GET /activity_reports/:id/download answers a short-lived URL of the file as text, which
 * the console follows as a download link (no credentials needed there).
 */
export async function downloadActivityReport(reportId: string, filename: string): Promise<void> {
  const answer = await apiDownload('api', `/activity_reports/${encodeURIComponent(reportId)}/download`);
  downloadUrl(filename, (await answer.text()).trim());
}
