// PyPI extractors, one per input format, in the registry of server/engine/extractors/index.ts.
import type { Extractor } from '../../model.ts';
import { pipfile, pyproject } from './declared.ts';
import { installed } from './installed.ts';
import { pdm } from './pdm.ts';
import { pipenv } from './pipenv.ts';
import { poetry } from './poetry.ts';
import { pylock } from './pylock.ts';
import { requirements } from './requirements.ts';
import { setupCfg, setupPy } from './setup.ts';
import { uv } from './uv.ts';

export const extractors: Extractor[] = [requirements, pipenv, poetry, uv, pdm, pylock, pipfile, pyproject, setupPy, setupCfg, installed];
