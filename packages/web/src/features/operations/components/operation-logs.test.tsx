import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockServer } from '../../../../test/fetch-mock.ts';
import { HOST, tokenHal } from '../../../../test/fixtures.ts';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { fetchOperationLogs } from '../api/fetch-operation-logs.ts';
import { LIVE_LOGS_MS } from '../api/use-operation-logs.ts';
import {
  LIVE_LOGS_NOTE,
  LOGS_WAIT_MESSAGE,
  LogText,
  logLineTone,
  NO_DATA_FOUND,
  OperationLogs,
} from './operation-logs.tsx';

// Rendered without the route table (test/render.tsx loads every route): the widget needs only a client.
function renderWithProviders(element: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{element}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const signIn = () => sessionStore.signIn(fromTokenResource(tokenHal()));
const text = (status: number, body: string) => () => new Response(body, { status });
const LOG_URL = `${HOST}/api/operation_logs/5?expires=1&signature=abc`;

describe('log line colours (spec 2 §4)', () => {
  it('marks ERROR lines red and WARN lines orange', () => {
    renderWithProviders(<LogText text={'starting\nWARN slow build\nERROR build failed\ndone\n'} />);
    const log = screen.getByRole('log', { name: 'Operation logs' });
    const lines = [...log.querySelectorAll('.log-line')];
    expect(lines.map((line) => line.textContent)).toEqual([
      'starting',
      'WARN slow build',
      'ERROR build failed',
      'done',
    ]);
    expect(lines.map((line) => line.getAttribute('data-tone'))).toEqual([null, 'warn', 'error', null]);
    expect(lines[2]).toHaveClass('log-line-error');
    expect(lines[1]).toHaveClass('log-line-warn');
  });

  it('ERROR wins over WARN on the same line', () => {
    expect(logLineTone('WARN then ERROR')).toBe('error');
    expect(logLineTone('warning in lower case')).toBeNull();
  });
});

describe('OperationLogs', () => {
  it('waits while the operation is queued, without asking for logs', () => {
    signIn();
    const server = mockServer({});
    renderWithProviders(<OperationLogs operationId="5" status="queued" />);
    expect(screen.getByText(LOGS_WAIT_MESSAGE)).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it('shows the lines of a running operation as they are written, and its last ones when it ends (issue 20)', async () => {
    signIn();
    const logPath = LOG_URL.replace(HOST, '');
    const server = mockServer({
      'GET /api/operations/5/logs': text(200, LOG_URL),
      [`GET ${logPath}`]: [
        text(200, 'Step 1: building\n'),
        text(200, 'Step 1: building\nStep 2: pushing\n'),
        text(200, 'Step 1: building\nStep 2: pushing\nDone\n'),
      ],
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const at = (status: string) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <OperationLogs operationId="5" status={status} />
        </MemoryRouter>
      </QueryClientProvider>
    );
    const { rerender } = render(at('running'));
    expect(await screen.findByText('Step 1: building')).toBeInTheDocument();
    expect(screen.getByText(LIVE_LOGS_NOTE)).toBeInTheDocument();
    // Read again while it runs.
    expect(
      await screen.findByText('Step 2: pushing', {}, { timeout: LIVE_LOGS_MS + 2000 }),
    ).toBeInTheDocument();
    rerender(at('succeeded'));
    expect(await screen.findByText('Done')).toBeInTheDocument();
    expect(screen.queryByText(LIVE_LOGS_NOTE)).not.toBeInTheDocument();
    expect(server.callsTo('GET', logPath.split('?')[0] ?? '').length).toBeGreaterThanOrEqual(3);
  });

  it('reads the capability URL without credentials and shows the text', async () => {
    signIn();
    const server = mockServer({
      'GET /api/operations/5/logs': text(200, LOG_URL),
      [`GET ${LOG_URL.replace(HOST, '')}`]: text(200, 'Pulling\nERROR boom\n'),
    });
    renderWithProviders(<OperationLogs operationId="5" status="failed" />);
    expect(await screen.findByText('ERROR boom')).toHaveClass('log-line-error');
    const [urlCall, logCall] = server.calls;
    expect(urlCall?.headers.Authorization).toMatch(/^Bearer /);
    expect(logCall?.headers.Authorization).toBeUndefined();
    expect(logCall?.credentials).toBe('omit');
  });

  it("shows 'No data found' for an empty log", async () => {
    signIn();
    mockServer({
      'GET /api/operations/5/logs': text(200, LOG_URL),
      [`GET ${LOG_URL.replace(HOST, '')}`]: text(200, ''),
    });
    renderWithProviders(<OperationLogs operationId="5" status="succeeded" />);
    expect(await screen.findByText(NO_DATA_FOUND)).toBeInTheDocument();
  });
});

describe('fetchOperationLogs (contract §1.10)', () => {
  it('retries the capability URL up to 5 times, then fails with the response text', async () => {
    signIn();
    const server = mockServer({
      'GET /api/operations/5/logs': text(200, LOG_URL),
      [`GET ${LOG_URL.replace(HOST, '')}`]: text(403, 'This log link is invalid or has expired'),
    });
    await expect(fetchOperationLogs('5', { retryDelayMs: 0 })).rejects.toThrow(
      'This log link is invalid or has expired',
    );
    expect(server.calls.filter((call) => call.path.startsWith('/api/operation_logs/'))).toHaveLength(6);
  });

  it('succeeds when a retry answers', async () => {
    signIn();
    mockServer({
      'GET /api/operations/5/logs': text(200, LOG_URL),
      [`GET ${LOG_URL.replace(HOST, '')}`]: [text(502, 'bad gateway'), text(200, 'ok')],
    });
    await expect(fetchOperationLogs('5', { retryDelayMs: 0 })).resolves.toBe('ok');
  });
});
