// AWS SDK failures the deployed-path CLIs meet most, said as what to do about them.

import type { StackOutputs } from './outputs.ts';

/** Node's codes for an AWS endpoint that cannot be reached: no network, no DNS, a proxy in the way. */
const NETWORK_ERRORS = /^(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)$/;

/** The error to show for `error`, met while working on the stack of `outputs`. */
export function explainAwsError(error: unknown, outputs: Pick<StackOutputs, 'stackName' | 'region' | 'file'>): unknown {
  const { name = '', message = '' } = (error ?? {}) as { name?: string; message?: string };
  const where = `stack ${outputs.stackName} in ${outputs.region} (from ${outputs.file})`;
  const { code = '', hostname } = (error ?? {}) as { code?: string; hostname?: string };
  if (NETWORK_ERRORS.test(code)) {
    const host = hostname ? ` ${hostname}` : '';
    return new Error(`Cannot reach AWS for ${where} (${code}${host}): check your network connection, proxy or VPN`);
  }
  if (name === 'CredentialsProviderError') {
    return new Error(`No AWS credentials for ${where}: run "aws configure" or "aws sso login", or set AWS_PROFILE`);
  }
  if (name === 'ResourceNotFoundException') {
    return new Error(`${message.replace(/\.$/, '')}: ${where} is gone or was replaced, deploy again`);
  }
  if (/^(UnrecognizedClient|InvalidSignature|ExpiredToken|AccessDenied)/.test(name)) {
    return new Error(`AWS refused the call for ${where} (${name}): ${message}`);
  }
  return error;
}
