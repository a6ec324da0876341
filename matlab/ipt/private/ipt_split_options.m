% SPDX-License-Identifier: Apache-2.0
function [texts, numbers] = ipt_split_options(opts)
% Text options (char or string scalars, lower case) and the rest, each in
% order of appearance.
texts = {};
numbers = {};
for k = 1:numel(opts)
  v = opts{k};
  if ischar(v) || (isa(v, 'string') && isscalar(v))
    texts{end+1} = lower(char(v)); %#ok<AGROW>
  else
    numbers{end+1} = v; %#ok<AGROW>
  end
end
end
