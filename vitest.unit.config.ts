import { configDefaults, mergeConfig } from 'vitest/config';
import config, { INTEGRATION_TESTS } from './vitest.config.js';

/** `npm run test:unit`: the everyday files, without the build, real programs or size limits (see INTEGRATION_TESTS). */
export default mergeConfig(config, { test: { exclude: [...configDefaults.exclude, ...INTEGRATION_TESTS] } });
