import { CopyButton } from './copy-button.tsx';
import './copyable-text.css';

/**
 * A text to paste elsewhere (a command, a token), shown as it is with a Copy button beside it, whose
 * accessible name `label` completes ("Copy the push command").
 */
export function CopyableText({
  text,
  label,
  secret = false,
}: {
  text: string;
  label: string;
  secret?: boolean;
}) {
  return (
    <div className={secret ? 'copyable-text copyable-text-secret' : 'copyable-text'}>
      <pre>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={`Copy ${label}`} />
    </div>
  );
}
