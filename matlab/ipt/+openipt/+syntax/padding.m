% SPDX-License-Identifier: Apache-2.0
function args = padding(value)
% The Padding name-value pair of imboxfilt and imgaussfilt: a number pads
% with that constant, text names the rule.
if isnumeric(value)
  args = {'Padding', 'constant', 'X', double(value)};
else
  args = {'Padding', lower(value)};
end
end
