// RFC 7643 schemas and RFC 7644 §4 discovery documents: what this service provider offers, said the way
// identity providers read it before they provision.

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** The largest page a list answers (`count` above it is cut to it), as ServiceProviderConfig says. */
export const MAX_RESULTS = 200;
/** The page size when the request names none. */
export const DEFAULT_COUNT = 100;

/** Longest values kept, checked before anything else reads them. */
export const SCIM_LIMITS = {
  externalId: 255,
  name: 200,
  /** PATCH operations in one request. */
  operations: 100,
  /** Members named in one request (a group's replace included). */
  members: 1000,
} as const;

type Attribute = {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'default' | 'never' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: Attribute[];
  referenceTypes?: string[];
};

function attribute(
  name: string,
  type: Attribute['type'],
  description: string,
  options: Partial<Omit<Attribute, 'name' | 'type' | 'description'>> = {},
): Attribute {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
  };
}

const userAttributes: Attribute[] = [
  attribute(
    'userName',
    'string',
    'The user’s email address: Berth’s unique identifier (without regard to case).',
    {
      required: true,
      uniqueness: 'server',
    },
  ),
  attribute('name', 'complex', 'The user’s name; Berth shows formatted, else givenName familyName.', {
    subAttributes: [
      attribute('formatted', 'string', 'The full name.'),
      attribute('givenName', 'string', 'The given name.'),
      attribute('familyName', 'string', 'The family name.'),
    ],
  }),
  attribute('displayName', 'string', 'The name shown when there is no name.'),
  attribute('emails', 'complex', 'The userName, as the work email (other addresses are not kept).', {
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attribute('value', 'string', 'The address.', { mutability: 'readOnly' }),
      attribute('type', 'string', 'Always work.', { mutability: 'readOnly' }),
      attribute('primary', 'boolean', 'Always true.', { mutability: 'readOnly' }),
    ],
  }),
  attribute('active', 'boolean', 'false takes the user out of the organization and ends their sessions.'),
  attribute('groups', 'complex', 'The groups (provisioned roles) the user is in.', {
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attribute('value', 'string', 'The group’s id.', { mutability: 'readOnly' }),
      attribute('display', 'string', 'The group’s name.', { mutability: 'readOnly' }),
      attribute('$ref', 'reference', 'The group’s URL.', {
        mutability: 'readOnly',
        referenceTypes: ['Group'],
      }),
    ],
  }),
];

const groupAttributes: Attribute[] = [
  attribute(
    'displayName',
    'string',
    'The group’s name: a role of the organization, unique without regard to case.',
    {
      required: true,
      uniqueness: 'server',
    },
  ),
  attribute('members', 'complex', 'The provisioned users in the group (holders of the role).', {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', 'The user’s id.', { mutability: 'immutable' }),
      attribute('display', 'string', 'The user’s name.', { mutability: 'readOnly' }),
      attribute('$ref', 'reference', 'The user’s URL.', {
        mutability: 'immutable',
        referenceTypes: ['User'],
      }),
    ],
  }),
];

/** RFC 7644 §4 and RFC 7643 §5: what is supported (filter, PATCH) and what is not (bulk, sort, ETags). */
export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'The token generated on the Provisioning page, as `Authorization: Bearer <token>`.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A member of the organization, provisioned by its identity provider',
      schema: USER_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A role of the organization, created and managed by its identity provider',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

export function schemas(baseUrl: string) {
  return [
    {
      schemas: [SCHEMA_SCHEMA],
      id: USER_SCHEMA,
      name: 'User',
      description: 'User Account',
      attributes: userAttributes,
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'Group',
      attributes: groupAttributes,
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}

/** A ListResponse (RFC 7644 §3.4.2). */
export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
