/** Texts shared by several widgets. */
export const commonStrings = {
  brand: 'Limelight',
  close: 'Close',
  loading: 'Loading…',
  unknownModel: 'Unknown Model',
};
