import { describe, expect, it } from 'vitest';
import { commitDots, deploymentBadge, deploymentImageLabel, shortSha } from './deployment.ts';

describe('deploymentBadge (spec 2 §4)', () => {
  it.each([
    ['running', 'Building'],
    ['queued', 'Queued'],
    ['failed', 'Failed'],
    ['succeeded', 'Deployed'],
    ['pending', 'Not deployed'],
    [null, 'Not deployed'],
  ])('%s reads %s', (status, badge) => {
    expect(deploymentBadge(status)).toBe(badge);
  });
});

describe('deployment display (spec 2 §3, §9)', () => {
  it("labels an empty image 'Dockerfile Build'", () => {
    expect(deploymentImageLabel('')).toBe('Dockerfile Build');
    expect(deploymentImageLabel(null)).toBe('Dockerfile Build');
    expect(deploymentImageLabel('nginx:1')).toBe('nginx:1');
  });

  it('cuts a commit SHA to 7 characters', () => {
    expect(shortSha('0123456789abcdef')).toBe('0123456');
    expect(shortSha(null)).toBe('');
  });

  it("shows at most 7 commit dots, then '+N'", () => {
    expect(commitDots([1, 2, 3])).toEqual({ shown: [1, 2, 3], more: 0 });
    expect(commitDots([1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual({ shown: [1, 2, 3, 4, 5, 6, 7], more: 2 });
  });
});
