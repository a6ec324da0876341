% SPDX-License-Identifier: Apache-2.0
function expect(cond, varargin)
% Fails the test with the formatted message unless COND holds.
if ~all(cond(:))
  error('openipt:test', varargin{:});
end
end
