// The function's environment both ways: what functionEnvironment writes, readConfig reads back as
// the same settings, for the shapes the stack, the local server, sam local and the bench write.

import { describe, expect, it } from '@jest/globals';
import { readConfig, tracingEnabled } from '../../../handlers/lib/config.ts';
import { declaredUnset, type FunctionSettings, functionEnvironment } from '../../../handlers/lib/environment.ts';

const COGNITO = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123';
const required = { tableName: 'plants', auth: { issuer: 'https://issuer.example.com/', audience: ['api://plants'] } };

/** Every setting the function has, none left to its default. */
const EVERY_SETTING: FunctionSettings = {
  tableName: 'plants',
  dynamodbEndpoint: 'http://127.0.0.1:8000',
  maxPageSize: 50,
  publicBaseUrl: 'https://plants.example.com/api',
  auth: {
    issuer: 'https://tenant.eu.auth0.com/',
    audience: ['https://plants.example.com'],
    issuerType: 'oidc',
    tokenUse: 'any',
    maxTokenLifetime: 3600,
    jwksUri: 'https://keys.example.com/jwks.json',
    requiredScope: ['read:plants', 'plants/read'],
    groupsClaim: 'https://plants.example.com/roles',
  },
  telemetry: {
    requestLog: 'all',
    service: 'plants-eu',
    namespace: 'PlantsEu',
    metrics: false,
    pretty: true,
    version: '7',
    initializationType: 'provisioned-concurrency',
  },
  groupCache: { ttlSeconds: 0, maxBytes: 1_048_576 },
};

const shapes: Record<string, { settings: FunctionSettings; read: object }> = {
  'the default stack: a Cognito user pool, its groups claim by default': {
    settings: {
      tableName: 'PlantStore-PlantsTable',
      auth: { issuer: COGNITO, audience: ['app-client', 'machine-client'], tokenUse: 'access' },
      telemetry: { service: 'plant-store', namespace: 'PlantStore', requestLog: 'failures', tracing: false },
    },
    read: {
      tableName: 'PlantStore-PlantsTable',
      auth: {
        issuer: COGNITO,
        audience: ['app-client', 'machine-client'],
        tokenUse: 'access',
        issuerType: 'cognito',
        groupsClaim: 'cognito:groups',
        jwksUri: `${COGNITO}/.well-known/jwks.json`,
      },
      telemetry: { service: 'plant-store', namespace: 'PlantStore', requestLog: 'failures' },
    },
  },
  // Given in full, every setting reads back as it was written.
  'an external OIDC issuer with every setting given': { settings: EVERY_SETTING, read: EVERY_SETTING },
  'the local issuer: Cognito-shaped tokens from a URL that is not a pool, groups off, links on loopback': {
    settings: {
      ...required,
      publicBaseUrl: 'http://localhost:3000',
      auth: { ...required.auth, issuerType: 'cognito', tokenUse: 'access', groupsClaim: false },
      telemetry: { metrics: true, pretty: false, initializationType: 'on-demand' },
    },
    read: {
      publicBaseUrl: 'http://localhost:3000',
      auth: { issuerType: 'cognito', tokenUse: 'access', groupsClaim: undefined, requiredScope: undefined },
      telemetry: { metrics: true, pretty: false, initializationType: 'on-demand', version: '$LATEST' },
    },
  },
  'an OIDC issuer with the defaults: no groups, anything but an ID token': {
    settings: required,
    read: {
      maxPageSize: 100,
      auth: { issuerType: 'oidc', tokenUse: 'not-id', groupsClaim: undefined, maxTokenLifetime: 86_400 },
      telemetry: { requestLog: 'failures', service: 'plant-store', namespace: 'PlantStore', metrics: true },
      groupCache: { ttlSeconds: 5, maxBytes: 16 * 2 ** 20 },
    },
  },
};

describe('functionEnvironment', () => {
  it.each(Object.entries(shapes))('is read back by readConfig: %s', (_, { settings, read }) => {
    expect(readConfig(functionEnvironment(settings))).toMatchObject(read);
  });

  it('writes only what it is given, as strings', () => {
    expect(functionEnvironment({})).toEqual({});
    expect(functionEnvironment({ maxPageSize: 50, telemetry: { metrics: false } })).toEqual({
      MAX_PAGE_SIZE: '50',
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
  });

  it('tells Powertools whether to trace, as tracingEnabled reads it', () => {
    const onLambda = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' };
    expect(tracingEnabled({ ...onLambda, ...functionEnvironment({ telemetry: { tracing: false } }) })).toBe(false);
    expect(tracingEnabled({ ...onLambda, ...functionEnvironment({ telemetry: { tracing: true } }) })).toBe(true);
  });
});

describe('declaredUnset', () => {
  it('declares variables that the function reads as unset', () => {
    const declared = declaredUnset('dynamodbEndpoint', 'jwksUri', 'issuerType', 'publicBaseUrl');
    expect(Object.values(declared)).toEqual(['', '', '', '']);
    const config = readConfig({ ...functionEnvironment(required), ...declared });
    expect(config).toMatchObject({ dynamodbEndpoint: undefined, publicBaseUrl: undefined });
    expect(config.auth).toMatchObject({
      issuerType: 'oidc',
      jwksUri: 'https://issuer.example.com/.well-known/jwks.json',
    });
  });
});
