% SPDX-License-Identifier: Apache-2.0
function ipt_test_run(folder, name)
% Runs test NAME with the OpenIPT folder first on the path and Octave's
% image package loaded; exits 0 (passed), 1 (failed) or 77 (skipped).
warning('off', 'Octave:shadowed-function');
try
  pkg('load', 'image');
catch err
  fprintf('SKIP: Octave''s image package does not load: %s\n', err.message);
  exit(77);
end
addpath(fileparts(mfilename('fullpath')));
addpath(folder);
try
  feval(name);
catch err
  if strcmp(err.identifier, 'openipt:skip')
    fprintf('SKIP: %s\n', err.message);
    exit(77);
  end
  fprintf(2, 'FAILED %s: %s (%s)\n', name, err.message, err.identifier);
  for k = 1:numel(err.stack)
    fprintf(2, '  at %s line %d\n', err.stack(k).name, err.stack(k).line);
  end
  exit(1);
end
fprintf('passed %s\n', name);
exit(0);
end
