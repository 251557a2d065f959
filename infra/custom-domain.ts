// The custom domain (-c domainName, certificateArn, basePath), checked at synth.

import { type ContextReader, SettingsError, text } from './context-values.ts';

export interface CustomDomain {
  domainName: string;
  /** ACM certificate for the name, in the stack's region (a regional endpoint). */
  certificateArn: string;
  basePath: string | undefined;
}

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/i;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[\w-]+$/;
const BASE_PATH = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

export function readCustomDomain(context: ContextReader): CustomDomain | undefined {
  const domainName = text(context, 'domainName');
  const certificateArn = text(context, 'certificateArn');
  const basePath = text(context, 'basePath')?.replace(/^\/+|\/+$/g, '') || undefined;
  if (domainName === undefined && certificateArn === undefined) {
    if (basePath !== undefined) throw new SettingsError('basePath needs domainName and certificateArn');
    return undefined;
  }
  if (domainName === undefined || certificateArn === undefined) {
    throw new SettingsError('domainName and certificateArn must be given together');
  }
  if (!HOSTNAME.test(domainName)) throw new SettingsError(`domainName must be a host name, got "${domainName}"`);
  if (!CERTIFICATE_ARN.test(certificateArn)) {
    throw new SettingsError(`certificateArn must be an ACM certificate ARN, got "${certificateArn}"`);
  }
  if (basePath !== undefined && !BASE_PATH.test(basePath)) {
    throw new SettingsError(
      `basePath must be path segments of letters, digits, "-", ".", "_" or "~", got "${basePath}"`,
    );
  }
  return { domainName, certificateArn, basePath };
}
