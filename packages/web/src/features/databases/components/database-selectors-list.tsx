import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';
import { useDatabaseImages } from '../../../resources/databases/use-databases.ts';
import {
  type DatabaseSelector,
  databaseSelectorProblems,
  parseDatabasesParam,
} from './database-selectors.ts';

/**
 * spec 2 §2 / spec 3 §2: the databases an app is created with, prefilled from the `dbs` query parameter
 * (`env:type:version,…`), each an environment variable and an image, checked by spec 2 §5's rules.
 */
export function DatabaseSelectorsList({ dbs }: { dbs: string }) {
  const images = useDatabaseImages();
  if (images.isPending) return <Spinner label="Loading database types" />;
  if (images.error) return null;
  return <Selectors initial={parseDatabasesParam(dbs, images.data)} images={images.data} />;
}

function Selectors({ initial, images }: { initial: DatabaseSelector[]; images: readonly DatabaseImage[] }) {
  const [selectors, setSelectors] = useState(initial);
  const problems = databaseSelectorProblems(selectors);
  const offered = images.filter((image) => image.visible);
  const update = (index: number, change: Partial<DatabaseSelector>) =>
    setSelectors((current) => current.map((item, at) => (at === index ? { ...item, ...change } : item)));
  return (
    <section className="form" aria-label="Databases">
      <h2 className="section-title">Databases</h2>
      {/* Creating the app does not provision these yet (that is the guided deploy's job). */}
      <p className="field-hint">
        The databases this app needs. Create them from the environment's Databases tab.
      </p>
      {selectors.map((selector, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: selectors have no identity beyond their place.
        <fieldset key={index} className="form">
          <TextField
            label="Environment Variable"
            value={selector.envVar}
            onChange={(event) => update(index, { envVar: event.target.value })}
          />
          <SelectField
            label="Database"
            value={selector.imageId}
            placeholder="Select a database"
            options={offered.map((image) => ({ value: image.id, label: image.description }))}
            error={problems[index] ?? undefined}
            onChange={(event) => update(index, { imageId: event.target.value })}
          />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setSelectors((current) => current.filter((_, at) => at !== index))}
          >
            Delete
          </Button>
        </fieldset>
      ))}
      <Button
        variant="secondary"
        size="sm"
        onClick={() => setSelectors((current) => [...current, { envVar: 'DATABASE_URL', imageId: '' }])}
      >
        Add Database
      </Button>
    </section>
  );
}
