// The function's code asset: the one build (`npm run build`) run locally, no Docker.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUILD = `${root}scripts/build.ts`;

/** Lambda handler setting for the bundle's `index.mjs`. */
export const HANDLER = 'index.handler';

export function handlerCode(): Code {
  return Code.fromAsset(`${root}handlers`, {
    // Hash the bundle, not the sources: a dependency or build change must redeploy too.
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by the API but never pulled: local bundling below always succeeds or throws.
      image: DockerImage.fromRegistry('unused-local-bundling-only'),
      local: {
        tryBundle(outputDir) {
          // The Node running this app (it strips types, so it runs build.ts as well); synchronous
          // because CDK's bundling hook is.
          execFileSync(process.execPath, [BUILD, outputDir], { stdio: ['ignore', 'ignore', 'inherit'] });
          return true;
        },
      },
    },
  });
}
