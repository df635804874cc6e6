import { describe, expect, it } from 'vitest';
import { containerProfile, cpuShare, scaleProblem } from './profiles.ts';

describe('container profiles (contract §4, spec 2 §5)', () => {
  it('knows each family’s limits, legacy classes stopping lower', () => {
    expect(containerProfile('m5')).toMatchObject({ minimumMb: 512, maximumMb: 376832 });
    expect(containerProfile('r5')).toMatchObject({ minimumMb: 4096, maximumMb: 770048 });
    expect(containerProfile('c4')).toMatchObject({ minimumMb: 2048, maximumMb: 59392 });
    expect(containerProfile('z1')).toBeNull();
  });

  it('explains what a scale cannot do', () => {
    expect(scaleProblem({ instanceClass: 'x', containerSizeMb: 1024 })).toBe(
      'could not find container profile for x',
    );
    expect(scaleProblem({ instanceClass: 'r5', containerSizeMb: 2048 })).toBe(
      'Container size for r5 must be between 4096 MB and 770048 MB',
    );
    expect(scaleProblem({ instanceClass: 'm5', containerCount: 33 })).toBe(
      'Container count must be between 0 and 32',
    );
    expect(scaleProblem({ instanceClass: 'm5', containerCount: 32, containerSizeMb: 512 })).toBeNull();
  });

  it('derives the CPU share per GB', () => {
    expect(cpuShare('m5', 2048)).toBe(0.5);
    expect(cpuShare('c5', 1024)).toBe(0.5);
    expect(cpuShare('r5', 8192)).toBe(1);
  });
});
