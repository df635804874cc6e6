import { Banner } from '../../../components/ui/banner.tsx';
import type { CodeScanResult } from '../api/use-code-scan-result.ts';
import './guided-deploy.css';

/** A scanned file, shown on request. */
function ScannedFile({ name, text }: { name: string; text: string }) {
  return (
    <details>
      <summary>View the scanned {name}</summary>
      <pre className="scan-file">
        <code>{text}</code>
      </pre>
    </details>
  );
}

/**
 * spec 3 "Configure App includes a code scan": what the scan of the pushed code found. Berth builds the
 * image from the Dockerfile, takes a Procfile's processes as services, and reads `.berth.yml`.
 */
export function CodeScanSummary({ result, gitRef }: { result: CodeScanResult; gitRef: string }) {
  const languages = result.languages.length ? result.languages.join(', ') : 'none recognised';
  return (
    <section className="section-stack" aria-label="Code scan">
      <h2 className="section-title">Code scan of {gitRef}</h2>
      {result.dockerfile !== null ? (
        <Banner variant="success" title="Your code has a Dockerfile">
          Berth builds your app’s image from it. Languages: {languages}.
          <ScannedFile name="Dockerfile" text={result.dockerfile} />
        </Banner>
      ) : (
        <Banner variant="warning" title="Your code has no Dockerfile">
          Berth builds the image from a Dockerfile at the root of the repository: add one, commit it and push
          again. Languages: {languages}.
        </Banner>
      )}
      {result.procfile !== null ? (
        <Banner variant="info" title="Your code has a Procfile">
          Its processes become the app’s services, each with its command.
          <ScannedFile name="Procfile" text={result.procfile} />
        </Banner>
      ) : null}
      {result.berthYml !== null ? (
        <Banner variant="info" title="Your code has a .berth.yml">
          <ScannedFile name=".berth.yml" text={result.berthYml} />
        </Banner>
      ) : null}
    </section>
  );
}
