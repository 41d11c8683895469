// downshift describes its props with prop-types at module level, even in production builds,
// where nothing ever checks them. The script-tag bundles swap prop-types for these no-ops.
const type = () => null;
type.isRequired = type;
const factory = () => type;
export default {
  any: type,
  array: type,
  bool: type,
  func: type,
  number: type,
  object: type,
  string: type,
  node: type,
  element: type,
  symbol: type,
  elementType: type,
  arrayOf: factory,
  instanceOf: factory,
  objectOf: factory,
  oneOf: factory,
  oneOfType: factory,
  shape: factory,
  exact: factory,
  checkPropTypes: () => {},
};
