import { useState } from 'react';
import { Button } from './button.tsx';
import { CopyButton } from './copy-button.tsx';
import './secret-url.css';

/** What stands for a hidden password: always the same length, so the mask tells nothing of the secret. */
export const PASSWORD_MASK = '•••';

/**
 * The URL with the password of its user information replaced by the mask (`postgresql://user:•••@host/db`),
 * or the URL itself when it carries no password. Read by position, not by a pattern: the user information
 * is what precedes the last `@` of the authority, and its password what follows its first `:`.
 */
export function maskUrlPassword(url: string): string {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) return url;
  const authorityStart = schemeEnd + 3;
  let authorityEnd = url.length;
  for (const delimiter of ['/', '?', '#']) {
    const at = url.indexOf(delimiter, authorityStart);
    if (at !== -1 && at < authorityEnd) authorityEnd = at;
  }
  const authority = url.slice(authorityStart, authorityEnd);
  const userInfoEnd = authority.lastIndexOf('@');
  if (userInfoEnd === -1) return url;
  const passwordStart = authority.indexOf(':');
  if (passwordStart === -1 || passwordStart > userInfoEnd || passwordStart === userInfoEnd - 1) return url;
  return (
    url.slice(0, authorityStart + passwordStart + 1) + PASSWORD_MASK + url.slice(authorityStart + userInfoEnd)
  );
}

/**
 * A URL holding a password, as two table cells: the URL with its password masked until Reveal, and its
 * actions. Copy always copies the real URL, without revealing it on screen. `name` completes the
 * buttons' accessible names ("Reveal postgresql connection URL").
 */
export function SecretUrlCells({ url, name, className }: { url: string; name: string; className?: string }) {
  const [shown, setShown] = useState(false);
  const masked = maskUrlPassword(url);
  const hidden = masked !== url && !shown;
  return (
    <>
      <td>
        <code className={className}>{hidden ? masked : url}</code>
        {hidden ? <span className="visually-hidden"> (password hidden)</span> : null}
      </td>
      <td>
        <div className="secret-url-actions">
          {masked !== url ? (
            <Button
              variant="secondary"
              size="sm"
              aria-pressed={shown}
              aria-label={`${shown ? 'Hide' : 'Reveal'} ${name}`}
              onClick={() => setShown((now) => !now)}
            >
              {shown ? 'Hide' : 'Reveal'}
            </Button>
          ) : null}
          <CopyButton text={url} label={`Copy ${name}`} />
        </div>
      </td>
    </>
  );
}
