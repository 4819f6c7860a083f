export {
  RecordingWriter,
  DEFAULT_ROTATE_BYTES,
  type RecordingWriterOptions,
} from './recording-writer.ts';
export {
  readRecording,
  openRecording,
  resolveRecordingFiles,
  type ReadRecordingOptions,
  type OpenedRecording,
  type RecordingSnapshots,
  type SnapshotBatch,
} from './recording-reader.ts';
export { letGo } from './let-go.ts';
export { RecordingDecoder, type RecordingWarning } from './recording-decoder.ts';
export {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  LineTag,
  type RecordingHeader,
} from './recording-format.ts';
export { listRecordingFiles, checkOneFilePerPart, partPath } from './recording-files.ts';
