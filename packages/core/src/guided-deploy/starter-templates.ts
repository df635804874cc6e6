// spec 3 §9: "Starter templates: Rails v7, Django v4, Express v4, Laravel v10, demo app. Template
// suggestions create postgresql 14 and redis 3.0 databases." The git remote page offers them beside
// custom code (spec 3 "The git remote page offers custom code or a starter template"); choosing one fills
// the configure step with its databases and variables.

export interface TemplateDatabase {
  /** The app variable that receives the database's connection URL. */
  envVar: string;
  type: 'postgresql' | 'redis';
  version: string;
}

/** A variable the template's framework reads: a fixed value, or a secret made in the browser. */
export type TemplateVariable =
  | { key: string; value: string }
  | { key: string; secret: 'hex' | 'laravel-key' };

export interface StarterTemplate {
  id: string;
  label: string;
  /** One sentence on what it is. */
  description: string;
  databases: readonly TemplateDatabase[];
  variables: readonly TemplateVariable[];
  /**
   * How to make the template's code on one's own machine, for a stack that builds pushed code (the
   * framework's own generator), and what the code needs before it is pushed.
   */
  create: readonly string[];
  needs: string;
}

const POSTGRESQL_14: TemplateDatabase = { envVar: 'DATABASE_URL', type: 'postgresql', version: '14' };
const REDIS_3: TemplateDatabase = { envVar: 'REDIS_URL', type: 'redis', version: '3.0' };

export const CUSTOM_CODE = 'custom';

export const STARTER_TEMPLATES: readonly StarterTemplate[] = [
  {
    id: 'rails',
    label: 'Ruby on Rails v7',
    description: 'A Rails 7 app on PostgreSQL, with Redis for caching and jobs.',
    databases: [POSTGRESQL_14, REDIS_3],
    variables: [{ key: 'SECRET_KEY_BASE', secret: 'hex' }],
    create: ["gem install rails -v '~> 7.1'", 'rails new my-app --database=postgresql', 'cd my-app'],
    needs: 'Rails 7.1 writes a Dockerfile into the new app; commit it with the code.',
  },
  {
    id: 'django',
    label: 'Django v4',
    description: 'A Django 4 project on PostgreSQL.',
    databases: [POSTGRESQL_14],
    variables: [{ key: 'SECRET_KEY', secret: 'hex' }],
    create: ["pip install 'Django~=4.2'", 'django-admin startproject my_app', 'cd my_app'],
    needs: 'Add a Dockerfile that installs the requirements and serves the project on $PORT.',
  },
  {
    id: 'express',
    label: 'Express v4',
    description: 'An Express 4 app for Node.js on PostgreSQL.',
    databases: [POSTGRESQL_14],
    variables: [],
    create: ['npx express-generator@4 my-app', 'cd my-app'],
    needs: 'Add a Dockerfile that runs npm ci and npm start; the app listens on $PORT.',
  },
  {
    id: 'laravel',
    label: 'Laravel v10',
    description: 'A Laravel 10 app on PostgreSQL.',
    databases: [POSTGRESQL_14],
    variables: [
      { key: 'DB_CONNECTION', value: 'pgsql' },
      { key: 'APP_KEY', secret: 'laravel-key' },
    ],
    create: ['composer create-project laravel/laravel:^10 my-app', 'cd my-app'],
    needs: 'Add a Dockerfile that serves the app on $PORT (for example php artisan serve).',
  },
  {
    id: 'demo',
    label: 'Demo app',
    description: 'A small web app that shows its PostgreSQL and Redis connections.',
    databases: [POSTGRESQL_14, REDIS_3],
    variables: [],
    create: ['mkdir demo-app', 'cd demo-app'],
    needs: 'Any web app with a Dockerfile that listens on $PORT will do.',
  },
];

export function starterTemplate(id: string | null | undefined): StarterTemplate | null {
  return STARTER_TEMPLATES.find((template) => template.id === id) ?? null;
}

const ENGINE_LABELS: Record<TemplateDatabase['type'], string> = { postgresql: 'PostgreSQL', redis: 'Redis' };

/**
 * The version a template's database is made with on a runtime, or null for the engine's default
 * version. The spec's Redis 3.0 predates the accounts (ACL users) the docker runtime gives every Redis
 * (it runs 6.2 and later), so on a stack that runs real containers the template's Redis takes the
 * default version instead of failing to provision.
 */
export function templateDatabaseVersion(database: TemplateDatabase, runtime: string): string | null {
  return runtime !== 'sim' && database.type === 'redis' ? null : database.version;
}

/** "PostgreSQL 14 (DATABASE_URL) and Redis 3.0 (REDIS_URL)", as made on the runtime. */
export function templateDatabasesLabel(databases: readonly TemplateDatabase[], runtime: string): string {
  const parts = databases.map((database) => {
    const version = templateDatabaseVersion(database, runtime);
    const name = version ? `${ENGINE_LABELS[database.type]} ${version}` : `${ENGINE_LABELS[database.type]}`;
    return `${name} (${database.envVar})`;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'no');
}

/**
 * What deploying the template does on the stack's runtime. `sim` builds nothing: its databases and the
 * deploy are simulated. A runtime that builds pushed code (`docker`) makes real databases and deploys
 * the code pushed to the app's remote, which the template's generator makes.
 */
export function templateDeploySummary(template: StarterTemplate, runtime: string): string {
  const databases = templateDatabasesLabel(template.databases, runtime);
  const variables = template.variables.map((variable) => variable.key);
  const setting = variables.length ? `, sets ${variables.join(' and ')}` : '';
  if (runtime === 'sim') {
    return `On this simulated stack, deploying it creates simulated ${databases} databases${setting}, and runs a simulated deploy of main: no code is fetched, built or run.`;
  }
  const redisNote = template.databases.some((database) => templateDatabaseVersion(database, runtime) === null)
    ? ' Redis takes its default version here: this runtime runs Redis 6.2 and later, not 3.0.'
    : '';
  return `Deploying it creates ${databases} databases as containers on this stack${setting}, and deploys the code you push to the app’s git remote: make it with the commands below.${redisNote}`;
}
