/**
 * The editor's image button (spec 5 "inline image upload", 7 POST /api/blog/upload-image,
 * 8 "Blog admin alerts"): choose a file, check it, offer compression, upload, insert.
 */
import { InlineUploadError, uploadInlineImage } from '../../lib/api/blog.ts';
import {
  ACCEPT_ATTRIBUTE,
  COMPRESSION_FAILED_MESSAGE,
  LOAD_FAILED_MESSAGE,
  compressImage,
  compressionQuestion,
  imageFileProblem,
  loadImage,
  shouldOfferCompression,
} from './image-file.ts';
import type { ArticleEditor } from './quill-setup.ts';

/** Open the system file picker; answers null when it is dismissed. */
function pickImageFile(): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = ACCEPT_ATTRIBUTE;
    input.hidden = true;
    const finish = (file: File | null) => {
      input.remove();
      resolve(file);
    };
    input.addEventListener('change', () => finish(input.files?.[0] ?? null), { once: true });
    input.addEventListener('cancel', () => finish(null), { once: true });
    document.body.append(input);
    input.click();
  });
}

/**
 * Run the whole flow for one image. `onUploading` brackets the network part, so the editor can
 * say 'Uploading...' meanwhile. Every failure ends in the spec's alert.
 */
export async function insertImageFromPicker(
  editor: ArticleEditor,
  onUploading: (uploading: boolean) => void,
): Promise<void> {
  // The cursor now, before the file dialog takes focus; none means the start (spec 7).
  const index = editor.quill.getSelection()?.index ?? null;
  const file = await pickImageFile();
  if (!file) return;

  const problem = imageFileProblem(file);
  if (problem) {
    alert(problem);
    return;
  }

  let image: HTMLImageElement;
  try {
    image = await loadImage(file);
  } catch {
    alert(LOAD_FAILED_MESSAGE);
    return;
  }

  let upload: { blob: Blob; name: string } = { blob: file, name: file.name };
  const { naturalWidth: width, naturalHeight: height } = image;
  if (
    shouldOfferCompression(file, width, height) &&
    confirm(compressionQuestion(file, width, height))
  ) {
    try {
      upload = await compressImage(file, image);
    } catch (error) {
      console.error('[blog-admin] image compression failed', error);
      alert(COMPRESSION_FAILED_MESSAGE);
      return;
    }
  }

  onUploading(true);
  try {
    const url = await uploadInlineImage(upload.blob, upload.name);
    editor.insertImage(url, index);
  } catch (error) {
    console.error('[blog-admin] inline image upload failed', error);
    const reason = error instanceof InlineUploadError ? error.message : 'Unknown error';
    alert(`Image upload failed: ${reason}`);
  } finally {
    onUploading(false);
  }
}
