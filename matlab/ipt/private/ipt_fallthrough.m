% SPDX-License-Identifier: Apache-2.0
function out = ipt_fallthrough(name, nout, args)
% Calls the next function NAME on the path (the toolbox, Octave's image
% package or a builtin): the OpenIPT folder is taken off the path for the
% call and put back where it was, even when the call fails.
% openipt.gpuImage arguments are gathered first.
colon = false(1, numel(args));
for k = 1:numel(args)
  try
    on_device = isa(args{k}, 'openipt.gpuImage');
  catch
    % Octave's magic colon (f(x, :), "the default") allows no test.
    on_device = false;
    colon(k) = true;
  end
  if on_device
    args{k} = gather(args{k});
  end
end
here = fileparts(fileparts(mfilename('fullpath')));
saved = path();
restore = onCleanup(@() restore_path(saved));
rmpath(here);
if ~any(exist(name) == [2 3 5 6])
  error('openipt:notFound', ...
        '%s: this form is not implemented by OpenIPT, and no other %s is on the path', name, name);
end
out = cell(1, max(1, nout));
if any(colon)
  % A magic colon reaches only a call written out by name (not feval).
  list = arrayfun(@(k) sprintf('args{%d}', k), 1:numel(args), 'UniformOutput', false);
  list(colon) = {':'};
  call = sprintf('%s(%s);', name, strjoin(list, ', '));
  if nout == 0
    eval(call);
    out = {};
  else
    eval(['[out{:}] = ' call]);
  end
elseif nout == 0
  % A call without outputs (imhist plots): nothing to hand back.
  feval(name, args{:});
  out = {};
else
  [out{:}] = feval(name, args{:});
end
clear restore;
end

function restore_path(saved)
path(saved);
% Octave: the shadows win over the image package's autoloads again.
openipt.syntax.autoloads('remove');
end
