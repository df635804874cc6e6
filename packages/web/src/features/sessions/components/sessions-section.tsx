import { toastMessages } from '@berth/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { Skeleton } from '../../../components/ui/query-state.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useSession, validElevatedToken } from '../../../lib/session-store.ts';
import { useLogOutOtherSessions, useRevokeSession, useUserSessions } from '../api/sessions.ts';

/** A short, readable name for a User-Agent string. */
export function describeClient(userAgent: string | null): string {
  if (!userAgent) return 'Unknown client';
  const browser =
    /(Edg|Firefox|Chrome|Safari|curl|node|HeadlessChrome)\/[\d.]+/.exec(userAgent)?.[0] ??
    userAgent.slice(0, 60);
  const system = /(Windows|Mac OS X|Linux|Android|iPhone|iPad)/.exec(userAgent)?.[0];
  return system ? `${browser} on ${system}` : browser;
}

/**
 * spec 1 §2 /settings/security "Log out other sessions": the user's live sessions, each revocable, and
 * one button that ends all but this one (it needs an elevated token, spec 1 §6).
 */
export function SessionsSection() {
  const session = useSession();
  const userId = session.accessToken?.userId ?? '';
  const sessions = useUserSessions(userId);
  const revoke = useRevokeSession(userId);
  const logOutOthers = useLogOutOtherSessions(userId);
  const [failure, setFailure] = useState<string | null>(null);
  const elevated = validElevatedToken(session) !== null;
  const others = sessions.data?.filter((s) => !s.current) ?? [];

  return (
    // The content's width, not a form's (issue 41): the table's columns and Revoke buttons fit in the card.
    <section className="card card-body" aria-labelledby="sessions-title">
      <h2 className="section-title" id="sessions-title">
        Sessions
      </h2>
      <p className="muted">
        Personal access tokens are not listed here, but “Log out other sessions” revokes them too. Make and
        revoke them under <Link to={paths.settingsTokens}>Access Tokens</Link>.
      </p>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {sessions.error ? <Banner variant="error">Error: {sessions.error.message}</Banner> : null}
      {sessions.data ? (
        <StaticTable
          caption="Your sessions"
          columns={['Client', 'Address', 'Signed in', 'Last used', { label: 'Actions', hidden: true }]}
        >
          {sessions.data.map((s) => (
            <tr key={s.id}>
              <td>
                {describeClient(s.userAgent)}
                {s.current ? <strong> (this session)</strong> : null}
                {s.impersonated ? <em> (staff impersonation)</em> : null}
              </td>
              <td>{s.ipAddress ?? '-'}</td>
              <td>{formatDateTime(s.createdAt)}</td>
              <td>{formatDateTime(s.lastUsedAt)}</td>
              <td>
                {s.current ? null : (
                  <ConfirmButton
                    label={`Revoke session ${describeClient(s.userAgent)} from ${formatDateTime(s.createdAt)}`}
                    confirmLabel="Confirm revoke"
                    denial={null}
                    onConfirm={async () => {
                      setFailure(null);
                      try {
                        await revoke.mutateAsync(s.id);
                      } catch (error) {
                        setFailure(messageOf(error));
                        throw error;
                      }
                    }}
                  >
                    Revoke
                  </ConfirmButton>
                )}
              </td>
            </tr>
          ))}
        </StaticTable>
      ) : sessions.isPending ? (
        <Skeleton label="Loading sessions" />
      ) : null}
      <div className="form-actions">
        {elevated ? (
          <Button
            variant="danger"
            loading={logOutOthers.isPending}
            disabled={sessions.isSuccess && others.length === 0}
            onClick={async () => {
              setFailure(null);
              try {
                await logOutOthers.mutateAsync();
                showToast(toastMessages.otherSessionsLoggedOut);
              } catch (error) {
                setFailure(messageOf(error));
              }
            }}
          >
            Log out other sessions
          </Button>
        ) : (
          <ButtonLink to={to.elevate(paths.settingsSecurity)} variant="danger">
            Log out other sessions
          </ButtonLink>
        )}
      </div>
    </section>
  );
}
