export { UploadField, type UploadFieldProps, type KnownFile } from './UploadField.tsx';
export { checkUpload, fileHref, typeOfName, uploadFiles } from './uploadFiles.ts';
