% SPDX-License-Identifier: Apache-2.0
function args = edge(nout, in)
% edge(I), edge(I, method), edge(I, method, threshold), then direction
% (sobel, prewitt, roberts), 'nothinning', sigma (log, canny) or h
% (zerocross). approxcanny, the gradient outputs and a direction or thinning
% option given twice fall through.
args = [];
if isempty(in) || nout > 2
  return;
end
args = {'I', in{1}};
method = 'sobel';
numbers = {};
for k = 2:numel(in)
  v = in{k};
  if ischar(v) || isa(v, 'string')
    v = lower(char(v));
    switch v
      case {'sobel', 'prewitt', 'roberts', 'log', 'zerocross', 'canny'}
        method = v;
      case {'both', 'horizontal', 'vertical', 'thinning', 'nothinning'}
        if any(strcmp(v, {'thinning', 'nothinning'}))
          name = 'thinning';
        else
          name = 'direction';
        end
        if any(strcmp(args(1:2:end), name))
          args = [];  % given twice: not a documented form
          return;
        end
        args(end+1:end+2) = {name, v};
      otherwise
        args = [];
        return;
    end
  else
    numbers{end+1} = v;
  end
end
args(end+1:end+2) = {'method', method};
if numel(numbers) > 2
  args = [];
  return;
end
if ~isempty(numbers) && ~isempty(numbers{1})
  args(end+1:end+2) = {'threshold', double(numbers{1})};
end
if numel(numbers) == 2 && ~isempty(numbers{2})
  switch method
    case {'log', 'canny'}
      args(end+1:end+2) = {'sigma', double(numbers{2})};
    case 'zerocross'
      args(end+1:end+2) = {'h', numbers{2}};
    otherwise
      args = [];
  end
end
end
