% SPDX-License-Identifier: Apache-2.0
function nv = plain_values(nv)
% A name-value list with its text values in lower case and its numbers in
% double, as the gateway passes options and numbers to the catalogue.
for k = 1:2:numel(nv)
  if ischar(nv{k+1})
    nv{k+1} = lower(nv{k+1});
  else
    nv{k+1} = double(nv{k+1});
  end
end
end
