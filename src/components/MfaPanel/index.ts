export { MfaPanel } from './MfaPanel';
export type { MfaPanelProps } from './MfaPanel';
export { useMfaPanel } from './useMfaPanel';
export type { UseMfaPanelOptions, PendingEnrolment } from './useMfaPanel';
export { QrCode, qrPath } from './QrCode';
export { isTotpCode } from './totpCode';
