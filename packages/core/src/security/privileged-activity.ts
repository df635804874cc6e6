// Issue 38 "Security & Compliance": the privileged changes Berth records, as the dashboard lists them.

export const PRIVILEGED_ACTIVITY_KINDS = [
  'role_created',
  'role_deleted',
  'role_member_added',
  'role_member_removed',
  'role_admin_granted',
  'role_admin_revoked',
  'member_removed',
  'permission_granted',
  'permission_revoked',
  'impersonation_started',
  'token_revoked',
  'sessions_revoked',
] as const;
export type PrivilegedActivityKind = (typeof PRIVILEGED_ACTIVITY_KINDS)[number];

export function isPrivilegedActivityKind(value: string): value is PrivilegedActivityKind {
  return (PRIVILEGED_ACTIVITY_KINDS as readonly string[]).includes(value);
}

/** What a recorded change says, as the dashboard shows it. */
export interface PrivilegedActivityFacts {
  kind: PrivilegedActivityKind;
  /** Who made the change (empty for the platform itself). */
  actorName: string;
  /** Whom it concerns (empty when no one in particular). */
  subjectName: string;
  /** The role, scope or token it was about. */
  detail: string;
}

/** One sentence per recorded change: who did what to whom. */
export function describePrivilegedActivity(facts: PrivilegedActivityFacts): string {
  const actor = facts.actorName || 'Berth';
  const subject = facts.subjectName || 'a member';
  const { detail } = facts;
  switch (facts.kind) {
    case 'role_created':
      return `${actor} created the role ${detail}`;
    case 'role_deleted':
      return `${actor} deleted the role ${detail}`;
    case 'role_member_added':
      return `${actor} added ${subject} to the role ${detail}`;
    case 'role_member_removed':
      return `${actor} removed ${subject} from the role ${detail}`;
    case 'role_admin_granted':
      return `${actor} made ${subject} an admin of the role ${detail}`;
    case 'role_admin_revoked':
      return `${actor} ended ${subject}'s admin rights on the role ${detail}`;
    case 'member_removed':
      return `${actor} removed ${subject} from the organization`;
    case 'permission_granted':
      return `${actor} granted ${detail} on this environment`;
    case 'permission_revoked':
      return `${actor} revoked ${detail} on this environment`;
    case 'impersonation_started':
      return `${actor} impersonated ${subject} (${detail})`;
    case 'token_revoked':
      return `${actor} revoked ${detail}`;
    case 'sessions_revoked':
      return `${actor} logged out ${detail}`;
  }
}
