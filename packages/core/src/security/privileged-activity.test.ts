import { describe, expect, it } from 'vitest';
import { describePrivilegedActivity, PRIVILEGED_ACTIVITY_KINDS } from './privileged-activity.ts';

describe('privileged activity sentences', () => {
  it.each([
    ['role_member_added', 'Ada added Grace to the role Developers'],
    ['role_admin_granted', 'Ada made Grace an admin of the role Developers'],
    ['member_removed', 'Ada removed Grace from the organization'],
    ['impersonation_started', 'Ada impersonated Grace (Developers)'],
  ] as const)('%s reads "%s"', (kind, sentence) => {
    expect(
      describePrivilegedActivity({ kind, actorName: 'Ada', subjectName: 'Grace', detail: 'Developers' }),
    ).toBe(sentence);
  });

  it('says something for every kind, and names Berth when no one acted', () => {
    for (const kind of PRIVILEGED_ACTIVITY_KINDS) {
      const sentence = describePrivilegedActivity({ kind, actorName: '', subjectName: '', detail: 'x' });
      expect(sentence.startsWith('Berth ')).toBe(true);
    }
  });
});
