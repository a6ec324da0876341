% SPDX-License-Identifier: Apache-2.0
function args = imcrop(nout, in)
% imcrop(I, rect); the interactive forms, indexed images and the rect output
% fall through.
args = [];
if numel(in) == 2 && nout <= 1 && isnumeric(in{2}) && numel(in{2}) == 4
  args = {'I', in{1}, 'rect', double(in{2}(:)')};
end
end
