// Component area: the recommended upgrade of a component, from the knowledge base's advisories.
// `{id}` is a purl; a numeric id (a component row of a task result) is not read here.
import { componentCalls } from '../../../contract/api/component.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { matchPackage, recommendVersion, type AdvisoryIndex } from '../../engine/index.ts';
import { UserError } from '../../errors.ts';
import { getAdvisoryIndex } from '../../kb/index-cache.ts';
import { KB_MSG } from '../../kb/messages.ts';
import { parsePackageUrl, parsePackageUrls, type PackageQuery } from '../../kb/packages.ts';
import { indexHandlers, type AreaHandlers, type HandlerIndex } from '../register.ts';

function recommendation(index: AdvisoryIndex, pkg: PackageQuery) {
  const findings = pkg.version ? matchPackage(index, pkg).length : 0;
  const { version, reason } = recommendVersion(index, pkg);
  return { purl: pkg.purl, ecosystem: pkg.ecosystem, name: pkg.name, version: pkg.version, recommendVersion: version, reason, findings };
}

function componentAreaHandlers({ db }: ServerContext): AreaHandlers<typeof componentCalls> {
  return {
    async recommendVersion({ params }) {
      // A numeric id names a component row of a task result, which this call does not read.
      if (/^\d+$/.test(params.id.trim())) throw new UserError(KB_MSG.componentNotFound, 'not-found');
      const pkg = parsePackageUrl(params.id);
      return ok(recommendation(await getAdvisoryIndex(db), pkg));
    },

    async bulkGetRecommendVersion({ body }) {
      const packages = parsePackageUrls(body.purls);
      const index = await getAdvisoryIndex(db);
      return ok(packages.map((pkg) => recommendation(index, pkg)));
    },
  };
}

export const componentHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(componentCalls, componentAreaHandlers(ctx));
