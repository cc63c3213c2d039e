import { optionValue } from './options.js';

/**
 * `--image REF` (`-o install`, `cutover`): an image reference as a runtime pulls it
 * (install/image-reference.ts), checked once the command runs, before any input is read (the check
 * loads with those commands, not at start-up); a bad one is refused naming the option.
 */
export async function checkImageOption(command: string, image: string | undefined): Promise<void> {
  if (image === undefined) return;
  const { checkImageReference } = await import('../install/image-reference.js');
  optionValue(command, '--image', image, checkImageReference);
}

