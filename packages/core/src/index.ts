export * from './constants/constants.ts';
export * from './environments/environment.schema.ts';
export * from './identity/identity.schema.ts';
export * from './permissions/permissions.ts';
export * from './session/token.ts';
