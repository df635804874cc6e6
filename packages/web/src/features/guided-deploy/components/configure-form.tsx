import {
  databaseSelectorProblems,
  dotenvMessages,
  draftWaitsForDatabases,
  envKeyProblems,
  envMessages,
  formatEnvText,
  MAX_DOTENV_LENGTH,
  parseDotenv,
  parseEnvText,
} from '@berth/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';
import type { ProjectDatabase } from '../api/project-deploy.ts';
import { type DraftDatabase, draftDatabaseHandles } from '../api/template-draft.ts';
import './guided-deploy.css';

export interface ConfigureSubmission {
  databases: ProjectDatabase[];
  variables: { key: string; value: string }[];
}

export interface ConfigureFormProps {
  appHandle: string;
  /** The database images on offer (the visible ones are listed). */
  images: readonly DatabaseImage[];
  /** The environment's database handles, which new ones must not take. */
  existingDatabaseHandles: readonly string[];
  initialDatabases: readonly DraftDatabase[];
  /** KEY=value text: the app's variables and the template's. */
  initialVariables: string;
  /**
   * Why the caller may not deploy this draft, or null: a draft that waits for databases (it makes some, or
   * its variables hold placeholders) asks for more (core's projectDeployDenial).
   */
  denial: (waitsForDatabases: boolean) => string | null;
  pending: boolean;
  onSubmit: (submission: ConfigureSubmission) => void;
}

/** The variables text's problems: its length first (bounded before it is parsed), then core's rules. */
function variablesProblems(text: string): string[] {
  if (text.length > MAX_DOTENV_LENGTH) return [dotenvMessages.tooLong];
  return parseEnvText(text).problems;
}

/**
 * spec 3 "Configure App": the databases to create with the app (each bound to the variable that receives
 * its connection URL, spec 2 §5's rules), the environment variables as KEY=value text, and a `.env`
 * file pasted or loaded into them. Nothing bad is sent: every problem shows as it is typed.
 */
export function ConfigureForm({
  appHandle,
  images,
  existingDatabaseHandles,
  initialDatabases,
  initialVariables,
  denial,
  pending,
  onSubmit,
}: ConfigureFormProps) {
  const variablesId = useId();
  const dotenvId = useId();
  const [databases, setDatabases] = useState<DraftDatabase[]>([...initialDatabases]);
  const [variables, setVariables] = useState(initialVariables);
  const [dotenv, setDotenv] = useState('');
  const [dotenvProblems, setDotenvProblems] = useState<string[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const offered = images.filter((image) => image.visible);
  const handles = draftDatabaseHandles(appHandle, databases, images, existingDatabaseHandles);
  const selectorProblems = databaseSelectorProblems(databases).map(
    (problem, index) => problem ?? envKeyProblems([databases[index]?.envVar.trim() ?? ''])[0] ?? null,
  );
  const textProblems = variablesProblems(variables);
  const variableKeys = new Set(
    textProblems.length ? [] : parseEnvText(variables).entries.map((entry) => entry.key),
  );
  // A variable and a database's variable are one configuration: each key once (spec 2 §5).
  const clashes = [
    ...new Set(databases.map((database) => database.envVar.trim()).filter((key) => variableKeys.has(key))),
  ].map(envMessages.duplicate);
  const problems = [...selectorProblems.filter((problem) => problem !== null), ...textProblems, ...clashes];
  const deployDenial = denial(
    draftWaitsForDatabases({
      databases,
      variables: textProblems.length ? [] : parseEnvText(variables).entries,
    }),
  );

  const update = (index: number, change: Partial<DraftDatabase>) =>
    setDatabases((current) => current.map((item, at) => (at === index ? { ...item, ...change } : item)));

  const addDotenv = () => {
    const parsed = parseDotenv(dotenv);
    const current = textProblems.length ? null : parseEnvText(variables).entries;
    if (parsed.problems.length || current === null) {
      setDotenvProblems(
        parsed.problems.length ? parsed.problems : ['Fix the variables above before adding a .env file'],
      );
      return;
    }
    // Pasted keys replace the same keys; the rest are kept.
    const merged = new Map(current.map((entry) => [entry.key, entry.value]));
    for (const entry of parsed.entries) merged.set(entry.key, entry.value);
    setVariables(formatEnvText(Object.fromEntries(merged)));
    setDotenv('');
    setDotenvProblems([]);
  };

  const loadFile = async (file: File | undefined) => {
    if (!file) return;
    // The size is checked before the file is read.
    if (file.size > MAX_DOTENV_LENGTH) {
      setDotenvProblems([dotenvMessages.tooLong]);
      return;
    }
    setDotenv(await file.text());
    setDotenvProblems([]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (deployDenial !== null || problems.length > 0 || pending) return;
    onSubmit({
      databases: databases.map((database, index) => ({
        envVar: database.envVar.trim(),
        imageId: database.imageId,
        type: images.find((image) => image.id === database.imageId)?.type ?? '',
        handle: handles[index] ?? '',
      })),
      variables: parseEnvText(variables).entries,
    });
  };

  return (
    <form className="form" noValidate onSubmit={submit} aria-label="Configure your App">
      <section className="section-stack" aria-labelledby={`${variablesId}-databases`}>
        <h2 className="section-title" id={`${variablesId}-databases`}>
          Databases
        </h2>
        <p className="field-hint">
          Each database is created and provisioned with the app; its variable receives its connection URL.
        </p>
        {databases.map((database, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: selectors have no identity beyond their place.
          <fieldset key={index} className="database-selector">
            <legend>
              Database {index + 1}: <code>{handles[index]}</code>
            </legend>
            <TextField
              label="Environment Variable"
              value={database.envVar}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => update(index, { envVar: event.target.value })}
            />
            <SelectField
              label="Database"
              value={database.imageId}
              placeholder="Select a database"
              options={offered.map((image) => ({ value: image.id, label: image.description }))}
              error={selectorProblems[index] ?? undefined}
              onChange={(event) => update(index, { imageId: event.target.value })}
            />
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Delete database ${index + 1}`}
              onClick={() => setDatabases((current) => current.filter((_, at) => at !== index))}
            >
              Delete
            </Button>
          </fieldset>
        ))}
        <div>
          <Button
            variant="secondary"
            size="sm"
            onClick={() =>
              setDatabases((current) => [
                ...current,
                {
                  envVar: current.length ? `DATABASE_${current.length + 1}_URL` : 'DATABASE_URL',
                  imageId: '',
                },
              ])
            }
          >
            Add Database
          </Button>
        </div>
      </section>

      <section className="section-stack" aria-labelledby={`${variablesId}-title`}>
        <h2 className="section-title" id={`${variablesId}-title`}>
          Environment Variables
        </h2>
        <div className="field">
          <label className="field-label" htmlFor={variablesId}>
            Variables
          </label>
          <textarea
            id={variablesId}
            className="input guided-env-editor"
            rows={8}
            spellCheck={false}
            value={variables}
            placeholder={'KEY=value\nMULTILINE="first line\nsecond line"'}
            aria-invalid={textProblems.length + clashes.length > 0 || undefined}
            aria-describedby={`${variablesId}-hint ${variablesId}-problems`}
            onChange={(event) => setVariables(event.target.value)}
          />
          <p className="field-hint" id={`${variablesId}-hint`}>
            Add any variables your app needs, such as API keys. One KEY=value per line; wrap multiline values
            in double quotes.
          </p>
          <ul className="guided-problems" id={`${variablesId}-problems`} aria-live="polite">
            {[...textProblems, ...clashes].map((problem) => (
              <li key={problem} className="field-error">
                {problem}
              </li>
            ))}
          </ul>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={dotenvId}>
            Paste a .env file
          </label>
          <textarea
            id={dotenvId}
            className="input guided-env-editor"
            rows={4}
            spellCheck={false}
            value={dotenv}
            placeholder={'# .env\nexport API_KEY=abc123\nGREETING="hello world"'}
            aria-describedby={`${dotenvId}-problems`}
            onChange={(event) => setDotenv(event.target.value)}
          />
          <ul className="guided-problems" id={`${dotenvId}-problems`} aria-live="polite">
            {dotenvProblems.map((problem) => (
              <li key={problem} className="field-error">
                {problem}
              </li>
            ))}
          </ul>
          <div className="guided-actions">
            <Button variant="secondary" size="sm" disabled={dotenv.trim() === ''} onClick={addDotenv}>
              Add to Variables
            </Button>
            {/* A real button, focusable with its focus ring; the file input itself stays out of sight and reach. */}
            <Button variant="ghost" size="sm" onClick={() => fileInput.current?.click()}>
              Load a .env file
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept=".env,text/plain"
              onChange={(event) => {
                void loadFile(event.target.files?.[0]);
                // The same file chosen again is read again.
                event.target.value = '';
              }}
            />
          </div>
        </div>
      </section>

      {problems.length > 0 ? <Banner variant="warning">Fix the problems above to deploy.</Banner> : null}
      <div className="submit-row">
        <ScopedButton
          type="submit"
          size="lg"
          block
          denial={deployDenial}
          loading={pending}
          disabled={problems.length > 0}
        >
          Save & Deploy
        </ScopedButton>
      </div>
    </form>
  );
}
