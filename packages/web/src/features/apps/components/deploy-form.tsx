import { useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import './apps.css';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';

export interface DeployFormProps {
  denial: string | null;
  onDeploy: (gitRef: string) => Promise<unknown>;
}

/** A deploy of a git ref (contract §6 `deploy` with `git_ref`); the guided deploy is a later issue. */
export function DeployForm({ denial, onDeploy }: DeployFormProps) {
  const id = useId();
  const [gitRef, setGitRef] = useState('main');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="card card-body form deploy-form"
      aria-label="Deploy"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setFailure(null);
        setBusy(true);
        try {
          await onDeploy(gitRef.trim() || 'main');
        } catch (error) {
          setFailure(messageOf(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <div className="field">
        <label className="field-label" htmlFor={id}>
          Git Ref
        </label>
        <input
          id={id}
          className="input"
          autoComplete="off"
          spellCheck={false}
          value={gitRef}
          onChange={(event) => setGitRef(event.target.value)}
        />
        <p className="field-hint">A branch, tag or commit pushed to the app's git remote.</p>
      </div>
      <div>
        <ScopedButton type="submit" denial={denial} loading={busy}>
          Deploy {gitRef.trim() || 'main'}
        </ScopedButton>
      </div>
    </form>
  );
}
