import { describe, expect, it } from 'vitest';
import {
  aggregateOperationStatus,
  bannerOperation,
  bannerTone,
  canRerunOperation,
  isOperationFinished,
  operationStatusLabel,
  showsResourceBanner,
} from './operation-status.ts';

const at = (minute: number) => `2025-01-15T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('operationStatusLabel (spec 3 §4)', () => {
  it.each([
    ['queued', 'QUEUED'],
    ['running', 'RUNNING'],
    ['succeeded', 'DONE'],
    ['failed', 'FAILED'],
    ['pending', 'UNKNOWN'],
    ['', 'UNKNOWN'],
    [null, 'UNKNOWN'],
  ])('%s reads %s', (status, label) => {
    expect(operationStatusLabel(status)).toBe(label);
  });

  it('only succeeded and failed are finished', () => {
    expect(['queued', 'running', 'succeeded', 'failed', 'x'].map(isOperationFinished)).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('aggregateOperationStatus (spec 2 §4)', () => {
  it.each([
    [[], 'unknown'],
    [
      [
        { status: 'succeeded', minute: 1 },
        { status: 'succeeded', minute: 2 },
      ],
      'succeeded',
    ],
    [
      [
        { status: 'succeeded', minute: 3 },
        { status: 'failed', minute: 1 },
      ],
      'failed',
    ],
    [
      [
        { status: 'failed', minute: 1 },
        { status: 'running', minute: 2 },
      ],
      'running',
    ],
    [
      [
        { status: 'queued', minute: 5 },
        { status: 'running', minute: 2 },
      ],
      'queued',
    ],
    [
      [
        { status: 'succeeded', minute: 1 },
        { status: 'weird', minute: 2 },
      ],
      'unknown',
    ],
  ])('%j gives %s', (operations, expected) => {
    const ops = operations.map(({ status, minute }) => ({ type: 'deploy', status, updatedAt: at(minute) }));
    expect(aggregateOperationStatus(ops)).toBe(expected);
  });
});

describe('resource banner (spec 2 §4)', () => {
  it.each([
    ['deploy', 'queued', true],
    ['deploy', 'running', true],
    ['deploy', 'failed', true],
    ['deploy', 'succeeded', false],
    ['configure', 'failed', true],
    ['configure_backup_policy', 'running', true],
    ['provision', 'queued', true],
    ['restart', 'failed', true],
    ['scale', 'running', true],
    ['scale', 'succeeded', false],
    ['deprovision', 'succeeded', true],
    ['deprovision', 'running', true],
    ['backup', 'failed', false],
    ['scan_code', 'running', false],
  ])('%s %s shows: %s', (type, status, shown) => {
    expect(showsResourceBanner({ type, status })).toBe(shown);
  });

  it('colours: succeeded success, failed error, running and queued progress', () => {
    expect(['succeeded', 'failed', 'running', 'queued', 'x'].map(bannerTone)).toEqual([
      'success',
      'error',
      'progress',
      'progress',
      null,
    ]);
  });

  it('shows only the latest operation, and only when its rule allows', () => {
    const failedDeploy = { type: 'deploy', status: 'failed', updatedAt: at(1) };
    const laterBackup = { type: 'backup', status: 'failed', updatedAt: at(2) };
    expect(bannerOperation([failedDeploy])).toBe(failedDeploy);
    expect(bannerOperation([failedDeploy, laterBackup])).toBeNull();
    expect(bannerOperation([])).toBeNull();
  });
});

describe('canRerunOperation (spec 3 §2)', () => {
  it.each([
    ['app', 'deploy', 'failed', true],
    ['app', 'restart', 'failed', true],
    ['service', 'scale', 'failed', true],
    ['app', 'deploy', 'succeeded', true],
    ['app', 'configure', 'succeeded', true],
    ['app', 'restart', 'succeeded', false],
    ['service', 'scale', 'succeeded', false],
    ['app', 'deploy', 'running', false],
    ['app', 'deploy', 'queued', false],
    ['database', 'provision', 'failed', true],
    ['database', 'backup', 'succeeded', true],
    // A deprovision, a restore or a point-in-time restore is confirmed first: no one-click Re-run.
    ['database', 'deprovision', 'failed', false],
    ['backup', 'restore', 'failed', false],
    ['metric_drain', 'provision', 'failed', true],
    ['metric_drain', 'deprovision', 'failed', false],
    ['mystery', 'provision', 'failed', false],
    // A log drain's failed provision is posted again (its destination may answer now).
    ['log_drain', 'provision', 'failed', true],
    ['log_drain', 'deprovision', 'failed', false],
    // An endpoint's failed provision or renew is posted again to /vhosts/:id/operations (contract §6).
    ['vhost', 'provision', 'failed', true],
    ['vhost', 'renew', 'failed', true],
    ['vhost', 'provision', 'succeeded', false],
    ['vhost', 'renew', 'running', false],
    // Deprovisioning asks for the hostname first (spec 2 §2): no one-click Re-run.
    ['vhost', 'deprovision', 'failed', false],
  ])('%s %s %s: %s', (resourceType, type, status, expected) => {
    expect(canRerunOperation({ resourceType, type, status })).toBe(expected);
  });
});
