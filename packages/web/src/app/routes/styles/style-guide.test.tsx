import fs from 'node:fs';
import path from 'node:path';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readRouteModules } from '../../../../build/route-preloads.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { mockServer } from '../../../../test/fetch-mock.ts';
import { staticGraph } from '../../../../test/module-graph.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { COLOR_GROUPS } from './foundations.tsx';
import { GUIDE_SECTIONS } from './guide-section.tsx';

// Issue 38: /styles shows every component of the kit, so a newcomer sees what exists before writing another.
// These tests keep it complete (a component added to components/ui and left out of the guide fails
// here), honest (the guide renders the kit's own components, imported from their modules) and lazy.

const guideDir = import.meta.dirname;
const web = path.resolve(guideDir, '../../../..');
const kitDir = path.join(web, 'src/components/ui');
const relative = (files: Iterable<string>) => [...files].map((file) => path.relative(web, file));

const kitModules = import.meta.glob<Record<string, unknown>>(
  ['../../../components/ui/*.tsx', '!../../../components/ui/*.test.tsx'],
  { eager: true },
);
/** A kit module's exports by its absolute path (the glob's keys are relative to this file). */
const kitModule = (file: string) => kitModules[path.relative(guideDir, file)];

/**
 * Components that are not placed on a page but made to appear: the guide shows them through the call
 * named here (it must import it from the same module). ToastRegion is rendered once, at the root.
 */
const SHOWN_THROUGH: Record<string, string> = { ToastRegion: 'showToast' };

/** Every component of the kit (a function exported under a capitalised name), by identity, with its name. */
function kitComponents(): Map<unknown, string> {
  const components = new Map<unknown, string>();
  for (const [key, exports] of Object.entries(kitModules)) {
    for (const [name, value] of Object.entries(exports)) {
      // A re-export is the same function: it counts once, under the first module that has it.
      if (typeof value === 'function' && /^[A-Z]/.test(name) && !components.has(value)) {
        components.set(value, `${path.basename(key)}: ${name}`);
      }
    }
  }
  return components;
}

interface GuideImport {
  file: string;
  imported: string;
  local: string;
}

/** The guide's imports from the kit, and the tags its JSX uses, read from its sources. */
function readGuide(): { imports: GuideImport[]; tags: Set<string> } {
  const imports: GuideImport[] = [];
  const tags = new Set<string>();
  const files = fs.readdirSync(guideDir).filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'));
  for (const file of files) {
    const full = path.join(guideDir, file);
    const source = ts.createSourceFile(full, fs.readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = path.resolve(guideDir, node.moduleSpecifier.text);
        const bindings = node.importClause?.namedBindings;
        if (path.dirname(target) === kitDir && bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            if (element.isTypeOnly) continue;
            imports.push({
              file: target,
              imported: element.propertyName?.text ?? element.name.text,
              local: element.name.text,
            });
          }
        }
      }
      if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
        tags.add(node.tagName.getText(source));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { imports, tags };
}

describe('the style guide is complete', () => {
  it('renders every component exported from components/ui, imported from its own module', () => {
    const components = kitComponents();
    expect(components.size).toBeGreaterThan(30);
    const { imports, tags } = readGuide();
    const shown = new Set<unknown>();
    for (const { file, imported, local } of imports) {
      const value = kitModule(file)?.[imported];
      expect(value, `${path.basename(file)} exports ${imported}`).toBeDefined();
      if (tags.has(local)) shown.add(value);
    }
    for (const [component, standIn] of Object.entries(SHOWN_THROUGH)) {
      const module = imports.find((item) => item.imported === standIn)?.file;
      expect(module, `the guide calls ${standIn} to show ${component}`).toBeDefined();
      shown.add(kitModule(module ?? '')?.[component]);
    }
    const missing = [...components].filter(([component]) => !shown.has(component)).map(([, name]) => name);
    expect(missing, 'components of the kit the style guide does not show').toEqual([]);
  });

  it('shows every colour of the palette', () => {
    const css = fs.readFileSync(path.join(web, 'src/styles/global.css'), 'utf8');
    const declared = new Set(css.match(/--color-[a-z-]+(?=:)/g));
    expect(declared.size).toBeGreaterThan(20);
    expect(COLOR_GROUPS.flatMap((group) => group.tokens).sort()).toEqual([...declared].sort());
  });
});

// Rendering every component of the kit takes a while in jsdom, more on a loaded machine.
const PAGE_TIMEOUT_MS = 60_000;

describe('the style guide page', () => {
  it(
    'has every section, an index to them, and sets the console theme from the page',
    async () => {
      signIn();
      mockServer(consoleRoutes());
      const user = userEvent.setup();
      renderApp('/styles');
      // The page is long, and a query by role or label over all of it takes seconds in jsdom: these read
      // the elements, then check what assistive technology gets from them.
      expect(await screen.findByText('Style guide', { selector: 'h1' })).toBeVisible();
      const headings = [...document.querySelectorAll('h2')].map((heading) => heading.textContent);
      const index = document.querySelector('nav.guide-index');
      expect(index).toHaveAccessibleName('Style guide sections');
      const links = [...(index?.querySelectorAll('a') ?? [])].map((link) => [
        link.textContent,
        link.getAttribute('href'),
      ]);
      expect(links).toEqual(Object.entries(GUIDE_SECTIONS).map(([id, title]) => [title, `#${id}`]));
      for (const [id, title] of Object.entries(GUIDE_SECTIONS)) {
        expect(headings).toContain(title);
        // The section the index leads to is the one its heading names.
        expect(document.getElementById(id)).toHaveAccessibleName(title);
      }
      // spec 3 §2: not in the menu.
      const menu = document.querySelector('aside nav');
      expect(menu).toHaveAccessibleName('Main');
      expect([...(menu?.querySelectorAll('a') ?? [])].map((link) => link.getAttribute('href'))).not.toContain(
        '/styles',
      );

      const theme = document.querySelector('fieldset.guide-theme') as HTMLElement;
      expect(theme).toHaveAccessibleName('Theme');
      expect(within(theme).getByLabelText('Light')).toBeChecked();
      await user.click(within(theme).getByLabelText('Dark'));
      expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
      // The same theme as the sidebar's toggle, kept for the next visit.
      expect(document.querySelector('button.theme-toggle')).toHaveAccessibleName('Switch to light theme');
      expect(window.localStorage.getItem('theme')).toBe('dark');
    },
    PAGE_TIMEOUT_MS,
  );

  it(
    "runs the sample form's rules on submit",
    async () => {
      signIn();
      mockServer(consoleRoutes());
      const user = userEvent.setup();
      renderApp('/styles');
      const heading = await screen.findByText('Create an app', { selector: 'h2' });
      const form = heading.closest('form') as HTMLElement;
      expect(form).toHaveAccessibleName('Create an app');
      await user.click(within(form).getByRole('button', { name: 'Create App' }));
      expect(await within(form).findByText('Handle must not be empty')).toBeVisible();
      await user.type(within(form).getByLabelText('Handle'), 'web');
      await user.selectOptions(within(form).getByLabelText('Environment'), 'staging');
      await user.click(within(form).getByLabelText('I understand this app is a sample'));
      await user.click(within(form).getByRole('button', { name: 'Create App' }));
      expect(await within(form).findByText('Saved web (the style guide keeps nothing).')).toBeVisible();
    },
    PAGE_TIMEOUT_MS,
  );
});

describe('the style guide chunk', () => {
  const routes = readRouteModules(path.join(web, 'src/app/router.tsx'), path.join(web, 'src/lib/paths.ts'), [
    path.join(web, 'src/app/list-pages.ts'),
  ]);

  it('loads lazily, as its own route module, behind the signed-in shell', () => {
    const styles = routes.find((route) => route.pattern === '/styles');
    expect(relative(styles?.modules ?? [])).toEqual([
      'src/app/shell/app-shell.tsx',
      'src/app/routes/styles/style-guide.tsx',
    ]);
    expect(styles?.session).toBe(true);
  });

  it('is never in the login chunk or the shell', () => {
    for (const entry of ['src/app/routes/auth/login.tsx', 'src/app/shell/app-shell.tsx']) {
      const loaded = relative(staticGraph(path.join(web, entry)));
      expect(
        loaded.filter((file) => file.startsWith('src/app/routes/styles/')),
        entry,
      ).toEqual([]);
      expect(loaded, entry).not.toContain('src/components/ui/qr-code.tsx');
    }
  });
});
