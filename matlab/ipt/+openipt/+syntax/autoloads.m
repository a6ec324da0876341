% SPDX-License-Identifier: Apache-2.0
function autoloads(action, names)
% Octave only. Octave resolves autoloaded functions before the path, and
% its image package autoloads some of the functions OpenIPT shadows
% (imdilate and imerode live in imerode.oct). 'remove' takes the autoloads
% of NAMES away (the folder's PKG_ADD does it when the folder is added to
% the path; without NAMES, those of the last call) and remembers them; 'restore' puts them back (PKG_DEL, and the
% fall-through while it calls the shadowed function).
if ~exist('OCTAVE_VERSION', 'builtin')
  return;
end
key = 'openipt_removed_autoloads';
if nargin < 2
  names = getappdata(0, 'openipt_shadowed_names');
else
  setappdata(0, 'openipt_shadowed_names', names);
end
removed = getappdata(0, key);
if isempty(removed)
  removed = struct('function', {}, 'file', {});
end
here = fileparts(fileparts(fileparts(mfilename('fullpath'))));
switch action
  case 'remove'
    a = autoload();
    for k = 1:numel(a)
      if ~any(strcmp(a(k).function, names))
        continue;
      end
      % The first file seen is the package's: once its .oct is loaded,
      % Octave may report the shadow's file of that base name instead.
      if ~any(strcmp({removed.function}, a(k).function)) && ~strncmp(a(k).file, here, numel(here))
        removed(end+1) = struct('function', a(k).function, 'file', a(k).file); %#ok<AGROW>
      end
      autoload(a(k).function, a(k).file, 'remove');
    end
  case 'restore'
    for k = 1:numel(removed)
      autoload(removed(k).function, removed(k).file);
    end
end
setappdata(0, key, removed);
end
